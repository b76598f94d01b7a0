package server

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEncodingNegotiationOverHTTP(t *testing.T) {
	fx := buildSite(t, 64<<10)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	tests := []struct {
		name, path, accept, wantEncoding, original string
	}{
		{"br preferred", "/", "gzip, deflate, br", "br", "index.html"},
		{"gzip only", "/", "gzip", "gzip", "index.html"},
		{"no header is identity", "/", "", "", "index.html"},
		{"q-values favour gzip", "/app.js", "gzip;q=1, br;q=0.5", "gzip", "app.js"},
		{"br refused with q=0", "/app.js", "br;q=0, gzip", "gzip", "app.js"},
		{"all refused falls back to identity", "/app.js", "br;q=0, gzip;q=0", "", "app.js"},
		{"star means br", "/app.css", "*", "br", "app.css"},
		{"identity only", "/app.css", "identity", "", "app.css"},
		{"x-gzip alias", "/app.css", "x-gzip", "gzip", "app.css"},
		{"wasm br", "/web/app.wasm", "br", "br", "web/app.wasm"},
		{"wasm gzip", "/web/app.wasm", "gzip", "gzip", "web/app.wasm"},
		{"wasm identity", "/web/app.wasm", "", "", "web/app.wasm"},
		{"png has no twin", "/web/icon.png", "br, gzip", "", "web/icon.png"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := map[string]string{}
			if tc.accept != "" {
				h["Accept-Encoding"] = tc.accept
			}
			resp, body := do(t, "GET", "http://"+addr+tc.path, h)
			require.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, tc.wantEncoding, resp.Header.Get("Content-Encoding"))
			assert.Equal(t, "Accept-Encoding", resp.Header.Get("Vary"))
			assert.Equal(t, strconv.Itoa(len(body)), resp.Header.Get("Content-Length"))
			assert.Equal(t, fx.files[tc.original], decode(t, tc.wantEncoding, body))
		})
	}
}

func TestContentTypeOfOriginal(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	tests := []struct{ path, want string }{
		{"/", "text/html; charset=utf-8"},
		{"/foo", "text/html; charset=utf-8"},
		{"/app.js", "text/javascript; charset=utf-8"},
		{"/app.css", "text/css; charset=utf-8"},
		{"/web/app.wasm", "application/wasm"},
		{"/manifest.webmanifest", "application/manifest+json"},
		{"/web/logo.svg", "image/svg+xml"},
		{"/web/data.json", "application/json"},
		{"/web/traces/log.csv", "text/csv; charset=utf-8"},
		{"/web/icon.png", "image/png"},
	}
	for _, tc := range tests {
		for _, enc := range []string{"br", "gzip", ""} {
			t.Run(tc.path+"/"+enc, func(t *testing.T) {
				resp, _ := do(t, "GET", "http://"+addr+tc.path, map[string]string{"Accept-Encoding": enc})
				require.Equal(t, 200, resp.StatusCode)
				assert.Equal(t, tc.want, resp.Header.Get("Content-Type"))
			})
		}
	}
}

func TestRoutesAndQueries(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	tests := []struct {
		path       string
		wantStatus int
		wantFile   string
	}{
		{"/", 200, "index.html"},
		{"/index.html", 200, "index.html"},
		{"/?kv=leak&n=3", 200, "index.html"},
		{"/foo", 200, "foo.html"},
		{"/foo?x=1", 200, "foo.html"},
		{"/foo.html", 200, "foo.html"},
		{"/web/app.wasm?v=2", 200, "web/app.wasm"},
		{"/web/inside.js", 200, "app.js"}, // symlink inside the folder is fine
		{"/missing", 404, ""},
		{"/missing.js", 404, ""},
		{"/app.js.br", 404, ""}, // twins only via Accept-Encoding
		{"/app.js.gz", 404, ""},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			resp, body := do(t, "GET", "http://"+addr+tc.path, nil)
			require.Equal(t, tc.wantStatus, resp.StatusCode)
			if tc.wantFile != "" {
				assert.Equal(t, fx.files[tc.wantFile], body)
			} else {
				assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
				assert.Equal(t, "404 Not Found\n", string(body))
			}
		})
	}
}

func TestETagRevalidation(t *testing.T) {
	fx := buildSite(t, 64<<10)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	url := "http://" + addr + "/web/app.wasm"
	etags := map[string]string{}
	for _, enc := range []string{"br", "gzip", ""} {
		t.Run("encoding="+enc, func(t *testing.T) {
			resp, _ := do(t, "GET", url, map[string]string{"Accept-Encoding": enc})
			etag := resp.Header.Get("ETag")
			require.Regexp(t, `^"[0-9a-f]{32}"$`, etag, "strong content-hash ETag")
			assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
			etags[enc] = etag

			again, _ := do(t, "GET", url, map[string]string{"Accept-Encoding": enc})
			assert.Equal(t, etag, again.Header.Get("ETag"), "stable across requests")

			nm, body := do(t, "GET", url, map[string]string{"Accept-Encoding": enc, "If-None-Match": etag})
			assert.Equal(t, 304, nm.StatusCode)
			assert.Empty(t, body)
			assert.Equal(t, etag, nm.Header.Get("ETag"))
			assert.Equal(t, "Accept-Encoding", nm.Header.Get("Vary"))

			stale, _ := do(t, "GET", url, map[string]string{"Accept-Encoding": enc, "If-None-Match": `"stale"`})
			assert.Equal(t, 200, stale.StatusCode)
		})
	}
	assert.Len(t, map[string]bool{etags["br"]: true, etags["gzip"]: true, etags[""]: true}, 3,
		"each representation has its own ETag")
}

func TestHeadHasHeadersButNoBody(t *testing.T) {
	fx := buildSite(t, 64<<10)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	for _, path := range []string{"/", "/web/app.wasm"} {
		t.Run(path, func(t *testing.T) {
			resp, rest := rawRequest(t, addr, "HEAD", path)
			require.Equal(t, 200, resp.StatusCode)
			assert.NotEmpty(t, resp.Header.Get("ETag"))
			assert.NotEmpty(t, resp.Header.Get("Content-Length"))
			assert.Empty(t, rest, "HEAD must send no body")
		})
	}
	// With an encoding the length is the twin's, sent without a body.
	resp, body := do(t, "HEAD", "http://"+addr+"/web/app.wasm", map[string]string{"Accept-Encoding": "br"})
	assert.Equal(t, "br", resp.Header.Get("Content-Encoding"))
	assert.Equal(t, strconv.Itoa(len(brotliBytes(t, fx.files["web/app.wasm"]))), resp.Header.Get("Content-Length"))
	assert.Empty(t, body)
}

func TestRanges(t *testing.T) {
	fx := buildSite(t, 4096)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	wasm := fx.files["web/app.wasm"]
	br := brotliBytes(t, wasm)
	tests := []struct {
		name, accept, rng string
		wantStatus        int
		wantBody          []byte
		wantRange         string
	}{
		{"identity slice", "", "bytes=10-19", 206, wasm[10:20], "bytes 10-19/4096"},
		{"identity suffix", "", "bytes=-5", 206, wasm[4091:], "bytes 4091-4095/4096"},
		// A range on a twin addresses the encoded bytes; its own ETag keeps
		// If-Range consistent.
		{"br slice", "br", "bytes=0-9", 206, br[:10], "bytes 0-9/" + strconv.Itoa(len(br))},
		{"unsatisfiable", "", "bytes=5000-6000", 416, nil, "bytes */4096"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := do(t, "GET", "http://"+addr+"/web/app.wasm", map[string]string{"Accept-Encoding": tc.accept, "Range": tc.rng})
			require.Equal(t, tc.wantStatus, resp.StatusCode)
			assert.Equal(t, tc.wantRange, resp.Header.Get("Content-Range"))
			if tc.wantBody != nil {
				assert.Equal(t, tc.wantBody, body)
				assert.Equal(t, strconv.Itoa(len(tc.wantBody)), resp.Header.Get("Content-Length"))
			}
		})
	}
}

func TestCodings(t *testing.T) {
	tests := []struct {
		header string
		want   []string // Content-Encoding values in order; "" is identity
	}{
		{"", []string{""}},
		{"br", []string{"br", ""}},
		{"gzip, deflate, br, zstd", []string{"br", "gzip", ""}},
		{"gzip;q=1.0, br;q=0.8", []string{"gzip", "br", ""}},
		{"br;q=0", []string{""}},
		{"BR;Q=0.5, GZIP", []string{"gzip", "br", ""}},
		{"*", []string{"br", "gzip", ""}},
		{"*;q=0.5, br;q=0", []string{"gzip", ""}},
		{"identity;q=0, *;q=0", []string{""}}, // identity is the last resort anyway
		{"identity, br;q=0.5", []string{"br", ""}},
		{"br;q=bogus, gzip", []string{"gzip", ""}}, // a malformed weight refuses
		{"br;q=2", []string{""}},
		{" , ;, gzip ; q=0.3 ", []string{"gzip", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.header, func(t *testing.T) {
			var got []string
			for _, c := range codings(tc.header) {
				got = append(got, c.name)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}
