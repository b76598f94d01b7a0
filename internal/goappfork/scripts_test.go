package goappfork

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goAppScripts are the scripts go.mod's go-app writes for a site at the
// root, by name.
func goAppScripts(t *testing.T) map[string]string {
	t.Helper()
	h := &app.Handler{Name: "test", Resources: app.LocalDir("")}
	scripts := map[string]string{}
	for _, name := range []string{AppJS, WorkerJS} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/"+name, nil))
		require.Equal(t, 200, rec.Code, name)
		scripts[name] = rec.Body.String()
	}
	return scripts
}

// Each script edit is made in what go-app writes: its old text gone, its
// new text there.
func TestEditScriptEditsGoAppsScripts(t *testing.T) {
	for name, js := range goAppScripts(t) {
		edited, err := EditScript(name, js, "")
		require.NoError(t, err, name)
		for _, e := range scriptEdits() {
			for _, r := range scriptReplacements(e, name, "") {
				assert.Equal(t, 1, strings.Count(edited, r.new), "edit %s", e.Name)
				if r.old != r.new {
					assert.NotContains(t, edited, r.old, "edit %s", e.Name)
				}
			}
		}
	}
}

// Each script edit, and the pin, must find go-app's code exactly once: a
// go-app whose code moved fails the build, naming the edit, instead of
// shipping its own version.
func TestEditScriptRefusesAChangedGoApp(t *testing.T) {
	scripts := goAppScripts(t)
	for _, e := range scriptEdits() {
		for script := range e.scripts {
			for _, r := range scriptReplacements(e, script, "") {
				t.Run(e.Name, func(t *testing.T) {
					changed := strings.Replace(scripts[script], r.old, strings.Replace(r.old, "(", "( ", 1), 1)
					require.NotEqual(t, scripts[script], changed)
					_, err := EditScript(script, changed, "")
					require.Error(t, err)
					assert.Contains(t, err.Error(), script+" (edit "+e.Name+")")
					assert.Contains(t, err.Error(), upgradeDoc)
				})
			}
		}
	}
}

// A site's version changes with any edit's text, and with the prefix the
// wasm's URL carries.
func TestScriptChanges(t *testing.T) {
	root, prefixed := ScriptChanges(""), ScriptChanges("/kvleak")
	assert.Len(t, root, 2*len(scriptEdits()), "one replacement an edit")
	assert.NotEqual(t, root, prefixed)
	assert.Contains(t, strings.Join(prefixed, "\n"), `fetch("/kvleak/web/app.wasm")`)
}
