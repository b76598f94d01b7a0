package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOfflineAfterFirstVisit checks go-app's service worker: after one
// visit, the page reloads and the wasm app starts with the server gone.
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
}
