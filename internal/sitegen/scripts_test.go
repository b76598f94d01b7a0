package sitegen

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A script whose code the edits no longer find fails the build and is
// left as it was.
func TestEditScriptsRefusesAChangedGoApp(t *testing.T) {
	dir := t.TempDir()
	changed := "// a go-app whose scripts the edits do not know\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "app.js"), []byte(changed), 0o644))
	err := editScripts(dir, "")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "app.js (edit ")
	assert.Equal(t, changed, read(t, filepath.Join(dir, "app.js")))
}

// Each edit, and the pin, finds go-app's code: with its text changed in
// what go-app writes, the build stops naming it.
func TestEachScriptEditIsExact(t *testing.T) {
	h := &app.Handler{Name: "test", Resources: app.LocalDir("")}
	for _, e := range scriptEdits("") {
		t.Run(e.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, script := range []string{"app.js", "app-worker.js"} {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", "/"+script, nil))
				require.Equal(t, 200, rec.Code, script)
				js := rec.Body.String()
				if script == e.script {
					require.Equal(t, 1, strings.Count(js, e.old), "go-app writes it once")
					js = strings.Replace(js, e.old, strings.Replace(e.old, "(", "( ", 1), 1)
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, script), []byte(js), 0o644))
			}
			assert.ErrorContains(t, editScripts(dir, ""), e.script+" (edit "+e.name+")")
		})
	}
}

// The head's script skips the wasm where go-app's check does: the same
// user-agent pattern and the same query parameter.
func TestTheHeadScriptMirrorsGoAppsCheck(t *testing.T) {
	pattern := regexp.MustCompile(`/[^/\n]+/i\.test\(navigator\.userAgent\)`)
	goapp := pattern.FindString(canLoadWasm)
	require.NotEmpty(t, goapp)
	assert.Equal(t, goapp, pattern.FindString(wasmEarlyCompile("", 1)))
	assert.Contains(t, canLoadWasm, `urlParams.get("wasm") !== "false"`)
	assert.Contains(t, wasmEarlyCompile("", 1), `.get("wasm") === "false"`)
}
