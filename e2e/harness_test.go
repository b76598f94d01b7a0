package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestHarnessRecordsProblems checks the harness itself: each kind of error
// it promises to catch is recorded.
func TestHarnessRecordsProblems(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>t</title><img src="/missing.png">
<script>console.error("boom", 42); setTimeout(() => { throw new Error("kaboom") });</script>`))
	}))
	defer srv.Close()

	b := newBrowser(t)
	b.Allow(".") // recorded, but this test must not fail for them
	b.Do(chromedp.Navigate(srv.URL), chromedp.Sleep(500*time.Millisecond))

	b.mu.Lock()
	all := strings.Join(b.problems, "\n")
	b.mu.Unlock()
	assert.Contains(t, all, "console.error: boom 42")
	assert.Contains(t, all, "uncaught exception")
	assert.Contains(t, all, "kaboom")
	assert.Contains(t, all, "404", "failed resource load from the browser log")
}
