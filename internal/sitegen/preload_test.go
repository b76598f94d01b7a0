package sitegen

import (
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/server"
)

var (
	preloadTag = regexp.MustCompile(`<link rel="preload" href="([^"]+)" as="fetch" type="application/wasm" crossorigin="anonymous">`)
	// compileScript is the head's inline script and the URL it compiles.
	compileScript = regexp.MustCompile(`(?s)<script>window\.kvleakWasm = .*?fetch\("([^"]+)"\).*?WebAssembly\.compileStreaming.*?</script>`)
)

// The generated page asks for app.wasm early and starts compiling it from
// its head, by the URL app.js falls back to, and the real server answers
// that URL with application/wasm in every encoding, which compileStreaming
// needs to compile while downloading.
func TestWasmPreloadOverHTTP(t *testing.T) {
	for _, prefix := range []string{"", "/kvleak"} {
		t.Run("prefix="+prefix, func(t *testing.T) {
			wasm, static := fixture(t)
			out := filepath.Join(t.TempDir(), "site")
			require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Prefix: prefix, Compress: fast}))
			h, err := server.New(server.Options{Dir: out, Prefix: prefix})
			require.NoError(t, err)
			srv := httptest.NewServer(h)
			defer srv.Close()

			page := get(t, srv.URL+prefix+"/", "identity").body
			head, _, ok := strings.Cut(page, "</head>")
			require.True(t, ok, "a <head>")
			m := preloadTag.FindAllStringSubmatch(head, -1)
			require.Len(t, m, 1, "one preload of the wasm in <head>")
			href := m[0][1]
			assert.Equal(t, prefix+"/web/app.wasm", href)
			c := compileScript.FindAllStringSubmatch(head, -1)
			require.Len(t, c, 1, "one script in <head> compiles the wasm")
			assert.Equal(t, href, c[0][1], "the script compiles what the page preloads")
			assert.Less(t, strings.Index(head, m[0][0]), strings.Index(head, c[0][0]), "the preload comes first")
			appJS := get(t, srv.URL+prefix+"/app.js", "identity").body
			assert.Contains(t, appJS, "await (window.kvleakWasm || WebAssembly.compileStreaming(fetch(\""+href+"\")))",
				"app.js instantiates the head's module, or compiles the same URL")

			for enc, twin := range map[string]string{"br": ".br", "gzip": ".gz", "identity": ""} {
				res := get(t, srv.URL+href, enc)
				assert.Equal(t, http.StatusOK, res.status, enc)
				assert.Equal(t, "application/wasm", res.header.Get("Content-Type"), enc)
				want, err := os.ReadFile(filepath.Join(out, "web", "app.wasm"+twin))
				require.NoError(t, err)
				assert.Equal(t, string(want), res.body, "%s: the %q twin", enc, twin)
				if twin != "" {
					assert.Equal(t, enc, res.header.Get("Content-Encoding"))
				} else {
					assert.Empty(t, res.header.Get("Content-Encoding"))
				}
			}
		})
	}
}

type response struct {
	status int
	header http.Header
	body   string
}

// get sends Accept-Encoding itself, so the client hands back the body as
// sent instead of decompressing gzip behind the test's back.
func get(t *testing.T, url, acceptEncoding string) response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Encoding", acceptEncoding)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return response{res.StatusCode, res.Header, string(b)}
}

// scriptElement is a <script> element: its attributes and its text.
var scriptElement = regexp.MustCompile(`(?s)<script((?:\s[^>]*)?)>(.*?)</script>`)

// The site's pages carry three inline scripts, the head's, and the site the
// hashes that the server's CSP allows them by; no page has an inline
// style, which the CSP would block.
func TestTheSiteCarriesItsInlineScriptsHash(t *testing.T) {
	for _, prefix := range []string{"", "/kvleak"} {
		wasm, _ := fixture(t)
		out := filepath.Join(t.TempDir(), "site")
		require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: "../../static", Prefix: prefix, Compress: fast}))
		hashes := strings.Fields(read(t, filepath.Join(out, server.ScriptHashes)))
		pages, err := filepath.Glob(filepath.Join(out, "*.html"))
		require.NoError(t, err)
		require.Len(t, pages, 2, "index.html and embed-example.html")
		inline := 0
		for _, p := range pages {
			page := read(t, p)
			assert.NotContains(t, page, "<style", p)
			assert.NotRegexp(t, `\sstyle=`, page, p)
			for _, m := range scriptElement.FindAllStringSubmatch(page, -1) {
				if strings.Contains(m[1], "src=") {
					continue
				}
				inline++
				sum := sha256.Sum256([]byte(m[2]))
				assert.Contains(t, hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'", "%s: %s", p, m[2])
			}
		}
		assert.Equal(t, 3, inline, "prefix %q: three inline scripts, the head's", prefix)
		assert.Len(t, hashes, inline, "a hash for each")
	}
}
