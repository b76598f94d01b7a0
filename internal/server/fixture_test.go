package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/require"
)

// fixture is a temporary site folder laid out like build/site, plus a
// secret file beside it that no request may ever read.
type fixture struct {
	dir    string            // the site folder
	files  map[string][]byte // originals by site-relative name
	secret string            // content of ../secret.txt
}

const secretText = "TOP-SECRET-do-not-serve"

const fixtureIndex = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>kvleak</title>
    <link rel="manifest" href="/manifest.webmanifest">
    <link href="/app.css" type="text/css" rel="stylesheet">
    <script defer src="/wasm_exec.js"></script>
    <script defer src="/app.js"></script>
  </head>
  <body><main id="playground"><h1>KV-cache leak playground</h1></main></body>
</html>
`

// buildSite writes the fixture; wasmSize sets the size of web/app.wasm.
// Compressible files get .br and .gz twins, as `make site` produces.
func buildSite(t testing.TB, wasmSize int) fixture {
	t.Helper()
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	files := map[string][]byte{
		"index.html":           []byte(fixtureIndex),
		"foo.html":             []byte(strings.Replace(fixtureIndex, "<h1>", "<h1>foo ", 1)),
		"app.js":               bytes.Repeat([]byte("console.log('goapp');\n"), 200),
		"wasm_exec.js":         bytes.Repeat([]byte("// go wasm glue\n"), 100),
		"app-worker.js":        bytes.Repeat([]byte("self.addEventListener('fetch', () => {});\n"), 50),
		"app.css":              bytes.Repeat([]byte("body { margin: 0; }\n"), 50),
		"manifest.webmanifest": []byte(`{"name":"kvleak","start_url":"/"}`),
		"web/app.wasm":         randomish(wasmSize),
		"web/logo.svg":         []byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`),
		"web/data.json":        []byte(`{"tokens":[1,2,3]}`),
		"web/traces/log.csv":   []byte("t,prompt_tokens,output_tokens\n0,6758,500\n"),
		"web/icon.png":         randomish(512), // not compressible: no twins
		"web/app.3f2a9c1b.css": []byte("h1 { color: red; }\n"),
	}
	for name, data := range files {
		writeFile(t, dir, name, data)
		if filepath.Ext(name) != ".png" {
			writeFile(t, dir, name+".br", brotliBytes(t, data))
			writeFile(t, dir, name+".gz", gzipBytes(t, data))
		}
	}
	writeFile(t, parent, "secret.txt", []byte(secretText))
	writeFile(t, dir, ".git/config", []byte(secretText))
	writeFile(t, dir, ".hidden", []byte(secretText))
	require.NoError(t, os.Symlink("../../secret.txt", filepath.Join(dir, "web/escape.txt")))
	require.NoError(t, os.Symlink("../app.js", filepath.Join(dir, "web/inside.js")))
	return fixture{dir: dir, files: files, secret: secretText}
}

func writeFile(t testing.TB, dir, name string, data []byte) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, data, 0o644))
}

// randomish is deterministic bytes that compress about 2:1, like a wasm.
func randomish(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(24))
	}
	return b
}

func brotliBytes(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriterLevel(&buf, 5)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

func gzipBytes(t testing.TB, data []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// decode undoes a response's Content-Encoding.
func decode(t testing.TB, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch encoding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		require.NoError(t, err)
		r = zr
	default:
		t.Fatalf("unexpected encoding %q", encoding)
	}
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

// startServer serves opts on a loopback port and returns host:port.
func startServer(t testing.TB, opts Options, tm Timeouts) string {
	t.Helper()
	h, err := New(opts)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	srv := NewHTTPServer(h, tm)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// testClient never adds or undoes Accept-Encoding on its own.
var testClient = &http.Client{
	Timeout:   10 * time.Second,
	Transport: &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

// do sends one request through net/http and returns the response with its
// body already read.
func do(t testing.TB, method, url string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := testClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, body
}

// rawRequest writes the request line exactly as given (no client-side
// path cleaning) and returns the parsed response and everything sent
// after the response headers.
func rawRequest(t testing.TB, addr, method, target string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(5*time.Second)))
	_, err = fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n", method, target)
	require.NoError(t, err)
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err)
	// Read the raw remainder rather than resp.Body, which would trust
	// Content-Length and hide a body sent after a HEAD.
	rest, err := io.ReadAll(br)
	require.NoError(t, err)
	return resp, rest
}
