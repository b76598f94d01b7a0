package e2e

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/internal/server"
)

// TestSubPath hosts the site under /kvleak, as on GitHub Pages: it builds a
// second site from build/app.wasm with gensite's -prefix (fast brotli), and
// serves it with the hardened server. The app starts at /kvleak/, its links
// stay under it, and nothing is served outside it.
func TestSubPath(t *testing.T) {
	t.Parallel()
	const prefix = "/kvleak"
	root := repoRoot(t)
	wasm := filepath.Join(root, "build", "app.wasm")
	if _, err := os.Stat(wasm); err != nil {
		t.Fatalf("%s is missing: run `make site` first (make test does it)", wasm)
	}
	out := filepath.Join(t.TempDir(), "site")
	cmd := exec.Command("go", "run", "-trimpath", "./cmd/gensite",
		"-out", out, "-wasm", wasm, "-static", filepath.Join(root, "static"), "-prefix", prefix, "-br-large-q", "1")
	cmd.Dir = root
	if outText, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gensite -prefix %s: %v\n%s", prefix, err, outText)
	}

	h, err := server.New(server.Options{Dir: out, Prefix: prefix})
	require.NoError(t, err)
	ln := listenFresh(t)
	srv := server.NewHTTPServer(h, server.Timeouts{})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	origin := "http://" + ln.Addr().String()

	// What the server answers, redirects not followed.
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct {
		path     string
		status   int
		location string
	}{
		{"/", http.StatusNotFound, ""},
		{"/index.html", http.StatusNotFound, ""},
		{"/web/app.css", http.StatusNotFound, ""},
		{prefix + "?" + demoQuery, http.StatusMovedPermanently, prefix + "/?" + demoQuery},
		{prefix + "/", http.StatusOK, ""},
		{prefix + "/web/app.wasm", http.StatusOK, ""},
		{prefix + "/app-worker.js", http.StatusOK, ""},
		{prefix + "/embed-example.html", http.StatusOK, ""},
		{prefix + "/web/embed-example.js", http.StatusOK, ""},
	} {
		resp, err := client.Get(origin + c.path)
		require.NoError(t, err, c.path)
		resp.Body.Close()
		assert.Equal(t, c.status, resp.StatusCode, "GET %s", c.path)
		assert.Equal(t, c.location, resp.Header.Get("Location"), "GET %s: Location", c.path)
	}

	// A permalink without the trailing slash: redirected, then replayed.
	b := newBrowser(t)
	p := mustPreset(t, "demo")
	b.Open(origin + prefix + "?" + demoQuery)
	s := waitShows(b, "the demo under "+prefix, expectAt(t, p.Slug, 0))
	assert.Equal(t, prefix+"/", s.Path)
	assert.Equal(t, "?"+demoQuery, s.Search)
	assert.False(t, s.HasBanner, "banner %q", s.Banner)

	// The address bar and the copied link stay under the prefix.
	b.Do(chromedp.SetValue(chromedp.ID("mode"), string(engine.Fixed)))
	fixed := p.Config
	fixed.Mode = engine.Fixed
	s = waitView(b, "the fixed door's link", func(s pageView) bool { return s.Search == "?"+linkQuery("", fixed, p.Ops) })
	assert.Equal(t, prefix+"/", s.Path)
	b.Do(chromedp.Click(chromedp.ID("copy-link")))
	s = waitView(b, "#share-url", func(s pageView) bool { return s.ShareURL != "" })
	assert.Equal(t, origin+prefix+"/?"+linkQuery("", fixed, p.Ops), s.ShareURL)

	// The service worker is scoped to the prefix.
	waitFor(b, "the service worker's registration", `(async () => {
		const r = await navigator.serviceWorker.getRegistration();
		return !!r && r.scope === location.origin + "`+prefix+`/";
	})()`, within(actionTimeout))

	// The embedding example finds the app in its own folder.
	b.Do(chromedp.Navigate(origin + prefix + "/embed-example.html"))
	waitFor(b, "the example's frame app under "+prefix, `(() => {
		const f = document.getElementById("kvleak-playground");
		const d = f && f.contentDocument;
		return !!(d && d.querySelector('#playground[data-ready="true"]') &&
			d.getElementById("status").textContent.trim() === "200");
	})()`, within(readyTimeout))
	src := run(b, chromedp.Evaluate[string](`document.getElementById("kvleak-playground").src`))
	assert.True(t, strings.HasPrefix(src, origin+prefix+"/?embed=1&"), "the frame's address %s", src)
}
