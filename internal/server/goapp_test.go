package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type goappPage struct{ app.Compo }

func (goappPage) Render() app.UI { return app.H1().Text("kvleak") }

// generate runs go-app's own static generator, so these tests check the
// CSP against the HTML go-app really writes, not against a guess.
func generate(t *testing.T, h *app.Handler) string {
	t.Helper()
	app.Route("/", func() app.Composer { return &goappPage{} })
	app.Route("/foo", func() app.Composer { return &goappPage{} })
	dir := t.TempDir()
	require.NoError(t, app.GenerateStaticWebsite(dir, h))
	return dir
}

func TestGoAppPagesNeedNoInlineAllowance(t *testing.T) {
	dir := generate(t, &app.Handler{
		Name:   "kvleak",
		Icon:   app.Icon{Default: "/web/icon.png", SVG: "/web/icon.svg"},
		Styles: []string{"/web/app.css"},
	})
	require.FileExists(t, filepath.Join(dir, "foo.html"))
	h, err := New(Options{Dir: dir})
	require.NoError(t, err)
	assert.Equal(t, baseCSP+"*", h.CSP(), "go-app v10 prerenders no inline script or style")
	assert.Empty(t, h.Warnings())
}

func TestGoAppDefaultIconIsRemoteAndReported(t *testing.T) {
	dir := generate(t, &app.Handler{Name: "kvleak"})
	h, err := New(Options{Dir: dir})
	require.NoError(t, err)
	require.NotEmpty(t, h.Warnings())
	assert.Contains(t, strings.Join(h.Warnings(), "\n"), "https://raw.githubusercontent.com/")
}

func TestGoAppRawHeaderScriptIsHashed(t *testing.T) {
	inline := "console.log('kvleak')"
	dir := generate(t, &app.Handler{
		Name:       "kvleak",
		Icon:       app.Icon{Default: "/web/icon.png"},
		RawHeaders: []string{"<script>" + inline + "</script>"},
	})
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	require.Contains(t, string(html), inline)
	h, err := New(Options{Dir: dir})
	require.NoError(t, err)
	assert.Contains(t, h.CSP(), "script-src 'self' 'wasm-unsafe-eval' "+sha256Source(inline)+";")
}
