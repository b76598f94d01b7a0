package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// A run too long for a link lives in the tab: the address bar says so, a
// reload restores it, and another browser that opens the same address
// gets a message, not the default scenario in silence.
func TestLongRunIsKeptInTheTab(t *testing.T) {
	t.Parallel()
	cfg := engine.DemoConfig()
	// 64 one-token pages on each server; 2-token prompts fit SGLang's
	// limit on both (58).
	cfg.PoolTokens, cfg.DecodePoolTokens, cfg.ContextTokens, cfg.PageTokens = 64, 64, 64, 1
	var ops []engine.Op
	for range 250 { // more than a link holds (200)
		ops = append(ops, engine.SendOp(engine.Request{Tenant: "A", PromptTokens: 2, Content: "long run"}))
	}
	file := writeRunFile(t, cfg, ops)
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	events := strconv.Itoa(e.Log().Len())

	url := serveSite(t)
	b := newBrowser(t)
	b.Open(url)
	b.Do(chromedp.SetUploadFiles(chromedp.ID("import"), []string{file}))
	waitFor(b, "the long run imported", `document.querySelector("#share-msg") !== null && document.querySelector("#share-msg").textContent === "Loaded a run of 250 operations."`)
	assert.Equal(t, "?v=4&tab=1", addressQuery(b), "the address bar names the tab's run")
	assert.Contains(t, textOf(b, "#link-too-long"), "It lives only in this tab")
	stepPos := textOf(b, "#step-pos")
	require.Equal(t, "Step "+events+" of "+events, stepPos, "the engine's events for the 250 requests")

	b.Do(chromedp.Reload())
	b.WaitReady()
	waitFor(b, "the run restored after a reload", `document.querySelector("#step-pos").textContent === `+jsLit(stepPos))
	assert.Equal(t, 0, countAll(b, "#banner"))
	assert.Equal(t, "?v=4&tab=1", addressQuery(b))

	other := newBrowser(t) // a fresh profile: its own sessionStorage
	other.Open(url + "?v=4&tab=1")
	waitFor(other, "the banner", jsExists("#banner"))
	assert.Contains(t, textOf(other, "#banner"), "kept in the tab it was made in")
	demo := presetWantOf(t, "demo").Events
	assert.Equal(t, "Step "+strconv.Itoa(demo)+" of "+strconv.Itoa(demo), textOf(other, "#step-pos"), "the default scenario is shown instead")
}

// writeRunFile writes runFile's export of cfg and ops to a file, for
// Import JSON.
func writeRunFile(t *testing.T, cfg engine.Config, ops []engine.Op) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(file, []byte(runFile(t, cfg, ops)), 0o644))
	return file
}
