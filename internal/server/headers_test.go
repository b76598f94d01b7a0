package server

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
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

// The CSP allows exactly the inline scripts whose hashes sitegen wrote to
// the site folder, and a site whose hash file holds anything else does not
// start: a line of it could otherwise end the directive.
func TestCSPAllowsTheSitesScriptHashes(t *testing.T) {
	fx := buildSite(t, 1024)
	sum := sha256.Sum256([]byte("window.kvleakWasm = 1;"))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	writeFile(t, fx.dir, ScriptHashes, []byte(hash+"\n"))
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	resp, _ := do(t, "GET", "http://"+addr+"/", nil)
	want := strings.Replace(baseCSP+"*", "'wasm-unsafe-eval'", "'wasm-unsafe-eval' "+hash, 1)
	assert.Equal(t, want, resp.Header.Get("Content-Security-Policy"))
	assert.NotContains(t, want, "unsafe-inline")
	hidden, _ := do(t, "GET", "http://"+addr+"/"+ScriptHashes, nil)
	assert.Equal(t, 404, hidden.StatusCode)

	writeFile(t, fx.dir, ScriptHashes, []byte(hash+"\nscript-src *\n"))
	_, err := New(Options{Dir: fx.dir})
	assert.ErrorContains(t, err, ScriptHashes+`: "script-src" is not a 'sha256-…' source`)
}
