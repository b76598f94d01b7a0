package sitegen

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kvleak/internal/precompress"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWasm is compressible, like a real wasm, so it gets twins.
var fakeWasm = []byte("\x00asm" + strings.Repeat("kv page ", 2048))

// fast keeps the tests quick; the qualities themselves are tested in
// precompress.
var fast = precompress.Options{Quality: 1, LargeQuality: 1}

// fixture makes a wasm file and a static dir holding the repo's icons and
// css plus an extra page.
func fixture(t *testing.T) (wasm, static string) {
	dir := t.TempDir()
	wasm = filepath.Join(dir, "app.wasm")
	require.NoError(t, os.WriteFile(wasm, fakeWasm, 0o644))
	static = filepath.Join(dir, "static")
	require.NoError(t, os.MkdirAll(static, 0o755))
	entries, err := os.ReadDir("../../static")
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() { // the request-log samples: not needed here
			continue
		}
		require.NoError(t, copyFile(filepath.Join("../../static", e.Name()), filepath.Join(static, e.Name())))
	}
	require.NoError(t, os.WriteFile(filepath.Join(static, "embed-example.html"), []byte("<!doctype html><iframe></iframe>"), 0o644))
	return wasm, static
}

func read(t *testing.T, path string) string {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

func TestVersion(t *testing.T) {
	_, static := fixture(t)
	v1, err := Version(fakeWasm, static, "", "")
	require.NoError(t, err)
	assert.Regexp(t, `^[0-9a-f]{16}$`, v1)

	again, err := Version(fakeWasm, static, "", "")
	require.NoError(t, err)
	assert.Equal(t, v1, again, "same inputs, same version")

	changed, err := Version(append([]byte{}, append(fakeWasm, 0)...), static, "", "")
	require.NoError(t, err)
	assert.NotEqual(t, v1, changed, "wasm changed")

	prefixed, err := Version(fakeWasm, static, "/kvleak", "")
	require.NoError(t, err)
	assert.NotEqual(t, v1, prefixed, "prefix changed")

	domain, err := Version(fakeWasm, static, "", "kvleak.example.org")
	require.NoError(t, err)
	assert.NotEqual(t, v1, domain, "domain changed")

	edits := scriptEdits("")
	edits[0].new += ";"
	edited, err := version(fakeWasm, static, "", "", edits)
	require.NoError(t, err)
	assert.NotEqual(t, v1, edited, "an edit of go-app's scripts changed")

	require.NoError(t, os.WriteFile(filepath.Join(static, "app.css"), []byte("a{}"), 0o644))
	css, err := Version(fakeWasm, static, "", "")
	require.NoError(t, err)
	assert.NotEqual(t, v1, css, "static file changed")
}

func TestGenerate(t *testing.T) {
	wasm, static := fixture(t)
	out := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Compress: fast}))

	for _, f := range []string{
		"index.html", "app.js", "app-worker.js", "manifest.webmanifest", "wasm_exec.js", "app.css",
		"embed-example.html", "web/app.wasm", "web/app.css", "web/icon.svg",
		"web/icon-192.png", "web/icon-512.png", "web/icon-maskable-512.png",
		"index.html.br", "index.html.gz", "app.js.br", "app.js.gz", "web/app.wasm.br", "web/app.wasm.gz",
	} {
		assert.FileExists(t, filepath.Join(out, f))
	}
	assert.NoFileExists(t, filepath.Join(out, "web/icon-192.png.br"), "PNGs are not recompressed")
	assert.Equal(t, string(fakeWasm), read(t, filepath.Join(out, "web/app.wasm")))

	index := read(t, filepath.Join(out, "index.html"))
	assert.Contains(t, index, `id="playground"`, "page is prerendered")
	assert.Contains(t, index, "<title>KV-cache leak playground</title>")
	assert.NotContains(t, index, "githubusercontent", "no icon from the internet")

	appJS := read(t, filepath.Join(out, "app.js"))
	version, err := Version(fakeWasm, static, "", "")
	require.NoError(t, err)
	assert.Contains(t, appJS, `"GOAPP_VERSION":"`+version+`"`)
	assert.Contains(t, appJS, `goappWasmContentLength = "`+strconv.Itoa(len(fakeWasm))+`"`)
	assert.Contains(t, appJS, `console.warn("goapp service worker registration failed: ", err)`)
	assert.NotContains(t, appJS, `console.error("goapp service worker registration failed`)
	assert.NotContains(t, appJS, `fetchWithProgress("`, "no JavaScript stream re-queues the wasm")
	assert.Contains(t, appJS, "WebAssembly.instantiate(module, go.importObject)", "app.js instantiates a compiled module")
	assert.Contains(t, read(t, filepath.Join(out, "app-worker.js")), `caches.match(request, {ignoreSearch: request.mode === "navigate"})`,
		"the worker answers a permalink from its cache")

	info, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), info.Mode().Perm())
}

func TestGenerateReplacesPreviousSite(t *testing.T) {
	wasm, static := fixture(t)
	out := filepath.Join(t.TempDir(), "site")
	c := Config{Out: out, Wasm: wasm, Static: static, Compress: fast}
	require.NoError(t, Generate(c))
	require.NoError(t, os.Remove(filepath.Join(static, "embed-example.html")))
	require.NoError(t, Generate(c))
	assert.NoFileExists(t, filepath.Join(out, "embed-example.html"), "removed static files do not linger")
	assert.FileExists(t, filepath.Join(out, "index.html"))
}

// urlAttr finds every href/src value in a page.
var urlAttr = regexp.MustCompile(`(?:href|src)="([^"]*)"`)

func TestGeneratePrefix(t *testing.T) {
	wasm, static := fixture(t)
	out := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Prefix: "kvleak/", Compress: fast}))

	index := read(t, filepath.Join(out, "index.html"))
	urls := urlAttr.FindAllStringSubmatch(index, -1)
	require.NotEmpty(t, urls)
	for _, m := range urls {
		if strings.HasPrefix(m[1], "https://") {
			continue // a source the page cites, on another site
		}
		if strings.HasPrefix(m[1], "#") {
			continue // a part of the page itself, the same under any prefix
		}
		assert.True(t, strings.HasPrefix(m[1], "/kvleak/"), "index.html URL %q", m[1])
	}

	appJS := read(t, filepath.Join(out, "app.js"))
	assert.Contains(t, appJS, `"GOAPP_ROOT_PREFIX":"/kvleak/"`)
	assert.Contains(t, appJS, `"GOAPP_STATIC_RESOURCES_URL":"/kvleak/web"`)
	assert.Contains(t, appJS, `fetch("/kvleak/web/app.wasm")`)
	assert.Contains(t, appJS, `"/kvleak/app-worker.js"`)

	var cache []string
	worker := read(t, filepath.Join(out, "app-worker.js"))
	m := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindStringSubmatch(worker)
	require.NotNil(t, m)
	require.NoError(t, json.Unmarshal([]byte(m[1]), &cache))
	assert.Contains(t, cache, "/kvleak/", "the page URL itself is cached, with the slash")
	for _, u := range cache {
		assert.True(t, strings.HasPrefix(u, "/kvleak/"), "cached URL %q", u)
	}

	var manifest struct {
		Scope    string `json:"scope"`
		StartURL string `json:"start_url"`
		Icons    []struct {
			Src string `json:"src"`
		} `json:"icons"`
	}
	require.NoError(t, json.Unmarshal([]byte(read(t, filepath.Join(out, "manifest.webmanifest"))), &manifest))
	assert.Equal(t, "/kvleak/", manifest.Scope)
	assert.Equal(t, "/kvleak/", manifest.StartURL)
	require.Len(t, manifest.Icons, 4)
	for _, i := range manifest.Icons {
		assert.True(t, strings.HasPrefix(i.Src, "/kvleak/web/icon"), i.Src)
	}
}

func TestGenerateErrors(t *testing.T) {
	wasm, static := fixture(t)
	dir := t.TempDir()

	err := Generate(Config{Out: filepath.Join(dir, "site"), Wasm: filepath.Join(dir, "nope.wasm"), Static: static})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nope.wasm not found")
	assert.Contains(t, err.Error(), "make wasm")

	foreign := filepath.Join(dir, "foreign")
	require.NoError(t, os.MkdirAll(foreign, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(foreign, "go.mod"), nil, 0o644))
	err = Generate(Config{Out: foreign, Wasm: wasm, Static: static, Compress: fast})
	require.ErrorContains(t, err, "refusing")
	assert.FileExists(t, filepath.Join(foreign, "go.mod"))

	require.NoError(t, os.WriteFile(filepath.Join(static, "index.html"), []byte("x"), 0o644))
	err = Generate(Config{Out: filepath.Join(dir, "site"), Wasm: wasm, Static: static, Compress: fast})
	require.ErrorContains(t, err, "would overwrite the generated index.html")
	matches, _ := filepath.Glob(filepath.Join(dir, ".gensite-*"))
	assert.Empty(t, matches, "temporary build dir is cleaned up")
}

func TestNormalizePrefix(t *testing.T) {
	for in, want := range map[string]string{"": "", "/": "", "kvleak": "/kvleak", "/kvleak/": "/kvleak", " /a/b/ ": "/a/b"} {
		got, err := NormalizePrefix(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"/a b", "/a/../b", "/..", "/a//b", "/<x>", "/.git"} {
		_, err := NormalizePrefix(bad)
		assert.Error(t, err, bad)
	}
}
