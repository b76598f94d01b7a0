package sitegen

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/goappfork"
)

// A script whose code the edits no longer find fails the build and is
// left as it was (goappfork's tests check each edit and the pin).
func TestEditScriptsRefusesAChangedGoApp(t *testing.T) {
	dir := t.TempDir()
	changed := "// a go-app whose scripts the edits do not know\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte(changed), 0o644))
	err := editScripts(dir, "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "app.js (edit ")
	assert.Equal(t, changed, read(t, filepath.Join(dir, "app.js")))
}

// The head's script skips the wasm where go-app's check does: the same
// user-agent pattern and the same query parameter.
func TestTheHeadScriptMirrorsGoAppsCheck(t *testing.T) {
	pattern := regexp.MustCompile(`/[^/\n]+/i\.test\(navigator\.userAgent\)`)
	goapp := pattern.FindString(goappfork.CanLoadWasm)
	require.NotEmpty(t, goapp)
	assert.Equal(t, goapp, pattern.FindString(wasmEarlyCompile("")))
	assert.Contains(t, goappfork.CanLoadWasm, `urlParams.get("wasm") !== "false"`)
	assert.Contains(t, wasmEarlyCompile(""), `.get("wasm") === "false"`)
}
