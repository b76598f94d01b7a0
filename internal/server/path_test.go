package server

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Sent over a raw TCP connection: Go's client would clean these paths.
func TestTraversalIsRefused(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	tests := []struct {
		name, target string
		want         int
	}{
		{"dot-dot", "/../secret.txt", 400},
		{"deep dot-dot", "/web/../../secret.txt", 400},
		{"etc passwd", "/../../../../etc/passwd", 400},
		{"dot segment", "/./index.html", 400},
		{"encoded dots", "/%2e%2e/secret.txt", 400},
		{"encoded dots and slash", "/%2e%2e%2fsecret.txt", 400},
		{"upper-case encoding", "/%2E%2E%2Fsecret.txt", 400},
		{"encoded slash", "/web%2fapp.wasm", 400},
		{"dot-dot encoded slash", "/..%2fsecret.txt", 400},
		{"encoded backslash", "/..%5csecret.txt", 400},
		{"raw backslash", `/web\app.wasm`, 400},
		{"raw backslash dot-dot", `/..\secret.txt`, 400},
		{"NUL", "/index.html%00.png", 400},
		{"NUL alone", "/%00", 400},
		{"long path", "/" + strings.Repeat("a", 2000), 414},
		{"long valid-looking path", "/web/" + strings.Repeat("x/", 600) + "app.wasm", 414},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp, rest := rawRequest(t, addr, "GET", tc.target)
			assert.Equal(t, tc.want, resp.StatusCode)
			assert.NotContains(t, string(rest), fx.secret)
		})
	}
}

func TestHiddenFilesDirectoriesAndEscapingLinks(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	for _, target := range []string{
		"/.git/config",
		"/.git/",
		"/.hidden",
		"/web/.",
		"/web/",
		"/web",
		"//",
		"/web//app.wasm",
		"/web/escape.txt", // symlink to ../../secret.txt
	} {
		t.Run(target, func(t *testing.T) {
			resp, rest := rawRequest(t, addr, "GET", target)
			assert.GreaterOrEqual(t, resp.StatusCode, 400)
			assert.Less(t, resp.StatusCode, 500)
			assert.NotContains(t, string(rest), fx.secret)
			assert.NotContains(t, string(rest), "app.wasm", "no directory listing")
		})
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{})
	for _, method := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"} {
		t.Run(method, func(t *testing.T) {
			resp, _ := do(t, method, "http://"+addr+"/index.html", nil)
			require.Equal(t, 405, resp.StatusCode)
			assert.Equal(t, "GET, HEAD", resp.Header.Get("Allow"))
		})
	}
}
