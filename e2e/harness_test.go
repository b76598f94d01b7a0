package e2e

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestHarnessRecordsProblems checks the harness itself: each kind of error
// it promises to catch is recorded.
func TestHarnessRecordsProblems(t *testing.T) {
	t.Parallel()
	srv := stubServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>t</title><img src="/missing.png">
<script>console.error("boom", 42); setTimeout(() => { throw new Error("kaboom") });</script>`))
	}))

	b := newBrowser(t)
	b.Allow(".") // recorded, but this test must not fail for them
	b.Do(chromedp.Navigate(srv.URL))

	// Each kind arrives as its own asynchronous event: wait for all of them.
	want := []string{"console.error: boom 42", "uncaught exception", "kaboom", "404"}
	recorded := func() string {
		b.mu.Lock()
		defer b.mu.Unlock()
		return strings.Join(b.problems, "\n")
	}
	waitUntil(t, "each kind of problem recorded (the 404 is a failed resource load from the browser log)", uiTimeout, func() (bool, string) {
		all := recorded()
		for _, w := range want {
			if !strings.Contains(all, w) {
				return false, fmt.Sprintf("no %q among:\n%s", w, all)
			}
		}
		return true, ""
	})
}
