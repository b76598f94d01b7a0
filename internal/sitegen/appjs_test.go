package sitegen

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each edit must find go-app's code exactly once, the pinned crawler check
// included: a go-app whose check differs from the head script's mirror of
// it fails the build instead of fetching the wasm for pages that skip it.
func TestEditAppJSRefusesAChangedGoApp(t *testing.T) {
	edits := appJSEdits("")
	var original strings.Builder
	for _, e := range edits {
		original.WriteString(e.from + "\n")
	}
	for i, e := range edits {
		t.Run(e.what, func(t *testing.T) {
			dir := t.TempDir()
			changed := strings.Replace(original.String(), e.from, strings.Replace(e.from, "(", "( ", 1), 1)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte(changed), 0o644))
			err := editAppJS(dir, edits)
			require.Error(t, err, "edit %d", i)
			assert.Contains(t, err.Error(), e.what)
			b, _ := os.ReadFile(filepath.Join(dir, "app.js"))
			assert.Equal(t, changed, string(b), "a refused edit leaves app.js as it was")
		})
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte(original.String()), 0o644))
	require.NoError(t, editAppJS(dir, edits))
}

// The head's script skips the wasm where go-app's check does: the same
// user-agent pattern and the same query parameter.
func TestTheHeadScriptMirrorsGoAppsCheck(t *testing.T) {
	pattern := regexp.MustCompile(`/[^/\n]+/i\.test\(navigator\.userAgent\)`)
	goapp := pattern.FindString(canLoadWasm)
	require.NotEmpty(t, goapp)
	assert.Equal(t, goapp, pattern.FindString(wasmEarlyCompile("")))
	assert.Contains(t, canLoadWasm, `urlParams.get("wasm") !== "false"`)
	assert.Contains(t, wasmEarlyCompile(""), `.get("wasm") === "false"`)
}
