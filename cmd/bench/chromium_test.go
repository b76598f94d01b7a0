package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"kvleak/internal/testskip"
)

// chromiumForTest is the Chromium the browser tests drive; without one the
// test is skipped, or fails under CI, where it must run.
func chromiumForTest(t *testing.T) string {
	t.Helper()
	exe, err := findChromium("")
	if err != nil {
		testskip.Need(t, err.Error())
	}
	return exe
}

// pageInBrowser serves page and starts a browser for it, both stopped when
// t ends; open navigates the browser's tab to the page with a query.
func pageInBrowser(t *testing.T, page string) (context.Context, *browser, func(query string)) {
	t.Helper()
	exe := chromiumForTest(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		// Cross-origin isolated, the page's clock ticks in 5 µs instead of
		// 100 µs: at 100 µs a frame that began just after the paint's task
		// could read the same time as it (CI saw it once).
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		w.Write([]byte(page))
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	b, err := newBrowser(ctx, exe)
	require.NoError(t, err)
	t.Cleanup(b.close)
	return ctx, b, func(query string) {
		require.NoError(t, b.do(ctx, stepTimeout, func(ctx context.Context, tg *chromedp.Target) error {
			_, err := chromedp.Navigate(srv.URL+query)(ctx, tg)
			return err
		}))
	}
}
