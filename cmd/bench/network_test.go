package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrackNetworkKeepsNoBodies: with the bench's network tracking the
// renderer keeps no copy of a fetched body, where chromedp's default keeps
// one (it counted in the renderer memory the bench reports).
func TestTrackNetworkKeepsNoBodies(t *testing.T) {
	exe := chromiumForTest(t)
	blob := bytes.Repeat([]byte{0, 'a', 's', 'm'}, 1<<18) // 1 MiB, binary like the wasm
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>t</title><script>
fetch("/blob").then(r => r.arrayBuffer()).then(b => { document.title = "fetched " + b.byteLength; });
</script>`))
	})
	mux.HandleFunc("/blob", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		w.Write(blob)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, tc := range []struct {
		name        string
		track, kept bool
	}{
		{name: "chromedp's default keeps it", kept: true},
		{name: "trackNetwork keeps none", track: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			b, err := newBrowser(ctx, exe)
			require.NoError(t, err)
			defer b.close()

			var mu sync.Mutex
			var blobID network.RequestID
			require.NoError(t, chromedp.Listen(b.tab, func(ev any) {
				if e, ok := ev.(*network.EventResponseReceived); ok && e.Response.URL == srv.URL+"/blob" {
					mu.Lock()
					blobID = e.RequestID
					mu.Unlock()
				}
			}))
			if tc.track {
				require.NoError(t, b.do(ctx, stepTimeout, trackNetwork))
			}
			require.NoError(t, b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
				_, err := chromedp.Navigate(srv.URL)(ctx, t)
				return err
			}))
			_, err = chromedp.Run(b.tab, chromedp.Poll[bool](`document.title === "fetched 1048576"`))
			require.NoError(t, err, "the page fetched the blob")
			mu.Lock()
			id := blobID
			mu.Unlock()
			require.NotEmpty(t, id, "the blob's response was seen")

			err = b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, network.GetResponseBody, network.GetResponseBodyParams{RequestID: id})
				return err
			})
			if tc.kept {
				assert.NoError(t, err, "DevTools kept the body")
			} else {
				assert.Error(t, err, "DevTools kept no body")
			}
		})
	}
}
