package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// TestExportImport exports the demo run as JSON through a real download,
// checks the file, imports it back over another scenario, and checks that
// bad files are refused with a clear message and change nothing.
func TestExportImport(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	downloads := acceptDownloads(b)

	p := mustPreset(t, "demo")
	want := expectAt(t, p.Slug, 0)
	b.Open(site + "?" + demoQuery)
	waitShows(b, "the demo", want)

	b.Do(chromedp.Click(chromedp.ID("export")))
	file := filepath.Join(downloads, "kvleak-run.json")
	data := waitForDownload(t, file)
	s := waitView(b, "the export message", func(s pageView) bool { return s.ShareMsg != "" })
	assert.Equal(t, "Exported 2 operations and 24 events as kvleak-run.json.", s.ShareMsg)

	// The file: schema, version, and the run as the engine has it.
	var f map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &f), "the export is JSON")
	for _, key := range []string{"schema", "version", "config", "ops", "events", "responses", "metrics"} {
		assert.Contains(t, f, key, "the export has %q", key)
	}
	var rf engine.RunFile
	require.NoError(t, json.Unmarshal(data, &rf))
	assert.Equal(t, "kvleak-run", rf.Schema)
	assert.Equal(t, engine.RunFileVersion, rf.Version)
	assert.Equal(t, p.Config, rf.Config)
	assert.Equal(t, p.Ops, rf.Ops)
	assert.Len(t, rf.Events, 24)
	assert.Len(t, rf.Responses, 2)
	assert.Equal(t, 7, rf.Metrics.LeakedPages)

	// Import it over another scenario: the demo's state comes back.
	b.Do(chromedp.SetValue(chromedp.ID("preset"), "demo-fixed"))
	fixed := mustPreset(t, "demo-fixed")
	waitShows(b, "the fixed door's demo", expectAt(t, fixed.Slug, 0))
	b.Do(chromedp.SetUploadFiles(chromedp.ID("import"), []string{file}))
	s = waitView(b, "the imported run", func(s pageView) bool {
		return strings.HasPrefix(s.ShareMsg, "Loaded") && s.Status == want.Status && s.Verdict == want.Verdict && s.StepPos == want.StepPos
	})
	assert.Equal(t, "Loaded a run of 2 operations.", s.ShareMsg)
	assert.Equal(t, "?"+linkQuery("", p.Config, p.Ops), s.Search, "the link is the imported run's (no preset)")
	assert.False(t, s.HasBanner)
	before := s

	// Bad files: a message, and nothing else changes.
	huge := `{"schema": "kvleak-run", "version": 2, "pad": "` + strings.Repeat("x", engine.MaxRunFileBytes) + `"}`
	bad := []struct{ name, content, msg string }{
		{"notes.json", "these are my notes, not JSON", "Nothing was loaded: not a run file: "},
		{"other.json", `{"schema": "something-else", "version": 2}`, fmt.Sprintf(`Nothing was loaded: not a run file of this playground (schema "something-else" version 2; want "kvleak-run" version 1 to %d)`, engine.RunFileVersion)},
		{"future.json", fmt.Sprintf(`{"schema": "kvleak-run", "version": %d}`, engine.RunFileVersion+1), fmt.Sprintf(`Nothing was loaded: not a run file of this playground (schema "kvleak-run" version %d; want "kvleak-run" version 1 to %d)`, engine.RunFileVersion+1, engine.RunFileVersion)},
		{"broken-run.json", `{"schema": "kvleak-run", "version": 2, "config": {"context": 16, "pool": 0, "page": 1, "slot": 8, "mode": "vulnerable", "alloc": "sorted", "cancel": "both", "kvBytes": 1}, "ops": []}`, "Nothing was loaded: the file's run cannot be replayed: prefill pool size 0"},
		{"huge.json", huge, "That file is " + engine.Thousands(int64(len(huge))) + " bytes; at most 4,194,304 are read."},
	}
	for _, c := range bad {
		path := filepath.Join(t.TempDir(), c.name)
		require.NoError(t, os.WriteFile(path, []byte(c.content), 0o644))
		b.Do(chromedp.SetUploadFiles(chromedp.ID("import"), []string{path}))
		s = waitView(b, c.name+" refused", func(s pageView) bool { return s.ShareMsg != before.ShareMsg })
		assert.Contains(t, s.ShareMsg, c.msg, c.name)
		assert.True(t, run(b, chromedp.Evaluate[bool](`document.getElementById("share-msg").classList.contains("field-error")`)),
			"%s: the message is shown as an error", c.name)
		assert.Equal(t, before.Search, s.Search, "%s: the link is unchanged", c.name)
		assert.Equal(t, before.Status, s.Status, c.name)
		assert.Equal(t, before.Verdict, s.Verdict, c.name)
		assert.Equal(t, before.StepPos, s.StepPos, c.name)
		before.ShareMsg = s.ShareMsg
	}
}

// waitForDownload waits for a finished download at path and returns it.
// Chromium writes to a .crdownload file and renames it when done.
// acceptDownloads lets the test's browser context save downloads, into a
// folder it returns.
func acceptDownloads(b *browser) string {
	b.t.Helper()
	dir := b.t.TempDir()
	b.discard = true // the context's downloads stay allowed
	_, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir, EventsEnabled: ptr(true),
		BrowserContextID: b.contextID(),
	})
	require.NoError(b.t, err)
	return dir
}

func waitForDownload(t *testing.T, path string) []byte {
	t.Helper()
	var data []byte
	waitUntil(t, "a download at "+path, actionTimeout, func() (bool, string) {
		var err error
		if data, err = os.ReadFile(path); err == nil && len(data) > 0 {
			return true, ""
		}
		entries, _ := os.ReadDir(filepath.Dir(path))
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return false, fmt.Sprintf("the folder holds %q", names)
	})
	return data
}
