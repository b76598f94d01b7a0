// Package e2e drives the real generated site (build/site) in headless
// Chromium. `make test` builds the site first; on its own, run `make site`.
package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"kvleak/internal/server"
)

// repoRoot walks up from the test's directory to the one holding go.mod.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// builtSite returns build/site and the URL prefix it was generated for.
func builtSite(t *testing.T) (dir, prefix string) {
	t.Helper()
	dir = filepath.Join(repoRoot(t), "build", "site")
	if d := os.Getenv("KVLEAK_SITE"); d != "" { // another build, e.g. under a prefix
		dir = d
	}
	return dir, builtPrefix(t, dir)
}

// builtPrefix is the prefix the site in dir was built under.
func builtPrefix(t *testing.T, dir string) string {
	t.Helper()
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatalf("%s/index.html is missing: run `make site` first (make test does it)", dir)
	}
	return sitePrefix(t, string(index))
}

// manifestLink finds the manifest URL; go-app writes attributes in random
// order, hence the loose pattern.
var manifestLink = regexp.MustCompile(`<link[^>]*href="([^"]*)/manifest\.webmanifest"`)

// sitePrefix reads the prefix back from the generated page, so the harness
// serves the site the way it was built (`make site SITE_PREFIX=/kvleak`).
func sitePrefix(t *testing.T, index string) string {
	m := manifestLink.FindStringSubmatch(index)
	if m == nil {
		t.Fatal("index.html has no manifest link: not a go-app site?")
	}
	return m[1]
}

// serveSite serves build/site over real HTTP on a loopback port for the
// test's lifetime and returns the app's URL, e.g. http://127.0.0.1:PORT/kvleak/.
func serveSite(t *testing.T) string {
	return startSite(t).URL
}

// testSite is a served build/site that a test can take down (offline tests).
type testSite struct {
	URL, Prefix string
	srv         *http.Server
}

func startSite(t *testing.T) *testSite {
	t.Helper()
	dir, _ := builtSite(t)
	return startSiteAt(t, dir)
}

// startSiteAt serves the site built in dir (the test-hooks build, say).
func startSiteAt(t *testing.T, dir string) *testSite {
	t.Helper()
	prefix := builtPrefix(t, dir)
	ln := listenFresh(t)
	h, err := server.New(server.Options{Dir: dir, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	srv := server.NewHTTPServer(h, server.Timeouts{})
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return &testSite{URL: "http://" + ln.Addr().String() + prefix + "/", Prefix: prefix, srv: srv}
}

// Stop closes the server: later requests get "connection refused".
func (s *testSite) Stop() { s.srv.Close() }
