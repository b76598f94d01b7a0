package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const baseCSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; " +
	"img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
	"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors "

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	index, _ := do(t, "GET", "http://"+addr+"/", nil)
	tests := []struct {
		name, method, target string
		header               map[string]string
		want                 int
	}{
		{"ok", "GET", "/", nil, 200},
		{"wasm", "GET", "/web/app.wasm", map[string]string{"Accept-Encoding": "br"}, 200},
		{"not modified", "GET", "/", map[string]string{"If-None-Match": index.Header.Get("ETag")}, 304},
		{"not found", "GET", "/nope", nil, 404},
		{"bad path", "GET", "/%2e%2e%2fsecret.txt", nil, 400},
		{"NUL", "GET", "/%00", nil, 400},
		{"method", "POST", "/", nil, 405},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, "http://"+addr+tc.target, nil)
			require.NoError(t, err)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			resp, err := testClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, tc.want, resp.StatusCode)
			assert.Equal(t, baseCSP+"*", resp.Header.Get("Content-Security-Policy"))
			assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
			assert.Equal(t, "strict-origin-when-cross-origin", resp.Header.Get("Referrer-Policy"))
			assert.Empty(t, resp.Header.Get("X-Frame-Options"), "embedding must stay possible")
			assert.Empty(t, resp.Header.Get("Cross-Origin-Resource-Policy"))
		})
	}
}

func TestFrameAncestors(t *testing.T) {
	fx := buildSite(t, 1024)
	tests := []struct{ flag, want string }{
		{"", "*"},
		{"*", "*"},
		{"'self' https://docs.example.com", "'self' https://docs.example.com"},
		{"  'none'  ", "'none'"},
	}
	for _, tc := range tests {
		t.Run(tc.flag, func(t *testing.T) {
			addr := startServer(t, Options{Dir: fx.dir, FrameAncestors: tc.flag}, Timeouts{})
			resp, _ := do(t, "GET", "http://"+addr+"/", nil)
			assert.Equal(t, baseCSP+tc.want, resp.Header.Get("Content-Security-Policy"))
		})
	}
}

func sha256Source(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func TestCSPAllowsExactlyTheInlineContent(t *testing.T) {
	fx := buildSite(t, 1024)
	script := "\n  window.goappEnv = {\"A\":\"1\"};\n"
	style := "body{margin:0}"
	attr := "color:red;width:10px"
	writeFile(t, fx.dir, "inline.html", []byte(
		`<html><head><script>`+script+`</script><STYLE media="all">`+style+`</STYLE>`+
			`<script src="/app.js"></script></head>`+
			`<body><p style="color:red;width:10px">x</p></body></html>`))
	h, err := New(Options{Dir: fx.dir})
	require.NoError(t, err)
	want := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' " + sha256Source(script) +
		"; style-src 'self' 'unsafe-hashes' " + sortedPair(sha256Source(style), sha256Source(attr)) +
		"; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors *"
	assert.Equal(t, want, h.CSP())
	assert.NotContains(t, h.CSP(), "unsafe-inline")
	require.Len(t, h.Warnings(), 1)
	assert.Contains(t, h.Warnings()[0], "inline.html has 1 inline style attribute(s)")
}

func sortedPair(a, b string) string {
	if a > b {
		a, b = b, a
	}
	return a + " " + b
}
