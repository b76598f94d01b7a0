package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestOfflineAfterFirstVisit checks go-app's service worker: after one
// visit, the page reloads and the wasm app starts with the server gone. A
// permalink opens from the cache too, whatever its query: a megabyte link,
// which no server passes (TestMegabyteLink), reaches the app whole and is
// refused in words.
func TestOfflineAfterFirstVisit(t *testing.T) {
	t.Parallel()
	site := startSite(t)
	b := newBrowser(t)
	b.Open(site.URL)

	// The worker caches in an install handler that nothing waits on, so
	// wait for the cache itself, not just for the worker to take control.
	cached := fmt.Sprintf(`Promise.all([caches.match(location.href), caches.match(%q)])
		.then(([page, wasm]) => !!(page && wasm && navigator.serviceWorker.controller))`,
		site.Prefix+"/web/app.wasm")
	waitFor(b, "the service worker to cache the page and app.wasm", cached, within(actionTimeout))

	site.Stop()
	b.Do(chromedp.Reload())
	b.WaitReady()

	// A permalink is the same page with a query string: it opens offline too
	// and replays its run.
	b.Open(site.URL + "?v=3&preset=demo-fixed")
	waitFor(b, "the status", jsExists("#status"))
	status := run(b, chromedp.Evaluate[string](`document.querySelector("#status").textContent`))
	if status != "400" {
		t.Fatalf("offline permalink shows status %q, want 400 (the fixed demo)", status)
	}

	def := expectAt(t, "demo", 0)
	b.Open(site.URL + "?" + megabyteQuery)
	s := waitView(b, "banner for a 1 MB link", func(s pageView) bool {
		return s.Ready && s.HasBanner && s.Status == def.Status && s.Verdict == def.Verdict
	})
	assert.Contains(t, s.Banner, "the link is 1,048,")
	assert.Contains(t, s.Banner, "bytes long; at most 16,384 are read")
	assert.Equal(t, len("?"+megabyteQuery), run(b, chromedp.Evaluate[int](`location.search.length`)), "the app saw the whole link")
}
