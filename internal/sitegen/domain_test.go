package sitegen

import (
	"html"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalizeDomain(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "  ": "", "kvleak.example.org": "kvleak.example.org", " KVLeak.Example.org ": "kvleak.example.org",
		"localhost:8080": "localhost:8080", "a-b.c1.io": "a-b.c1.io", "user.github.io": "user.github.io",
	} {
		got, err := NormalizeDomain(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{
		"https://kvleak.example.org", "kvleak.example.org/kvleak", "a b.org", "-a.org", "a-.org", "a..org",
		".org", "org.", "host:0", "host:65536", "host:08080", "host:", "<x>.org", "a.org?x=1", "user@a.org",
		"é.org", string(make([]byte, 300)),
	} {
		_, err := NormalizeDomain(bad)
		require.Error(t, err, "%q", bad)
		assert.Contains(t, err.Error(), "invalid -domain")
	}
}

// ogContent is the content of each og: and twitter: meta tag, in either
// attribute order, unescaped.
func ogContent(page string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`<meta (?:(?:property|name)="((?:og|twitter):[a-z:]+)" content="([^"]*)"|content="([^"]*)" (?:property|name)="((?:og|twitter):[a-z:]+)")>`)
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		if m[1] != "" {
			out[m[1]] = html.UnescapeString(m[2])
		} else {
			out[m[4]] = html.UnescapeString(m[3])
		}
	}
	return out
}

func TestGenerateLinkPreviews(t *testing.T) {
	wasm, static := fixture(t)

	out := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Compress: fast}))
	og := ogContent(read(t, filepath.Join(out, "index.html")))
	assert.Equal(t, "KV-cache leak playground", og["og:title"], "the tags are read: %v", og)
	assert.NotContains(t, og, "og:url", "no domain: no bare https:// URL")
	assert.NotContains(t, og, "og:image")
	assert.NotContains(t, og, "twitter:card", "no domain: no card without its picture")
	assertPreviewPNG(t, filepath.Join(out, "web", "preview.png"))

	out = filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Prefix: "/kvleak", Domain: "User.github.io", Compress: fast}))
	og = ogContent(read(t, filepath.Join(out, "index.html")))
	assert.Equal(t, "https://user.github.io/kvleak", og["og:url"])
	assert.Equal(t, "https://user.github.io/kvleak/web/preview.png", og["og:image"])
	assertPreviewPNG(t, filepath.Join(out, "web", "preview.png"))
	assert.Equal(t, "1200", og["og:image:width"])
	assert.Equal(t, "630", og["og:image:height"])
	assert.Contains(t, og["og:image:alt"], "Tenant B's request read 8 KV pages, 7 of them marked leaked. LEAK: 7 pages of tenant A returned to tenant B with HTTP 200")
	assert.Equal(t, "summary_large_image", og["twitter:card"])
	assert.Equal(t, og["og:image"], og["twitter:image"])
	assert.Equal(t, og["og:image:alt"], og["twitter:image:alt"])

	err := Generate(Config{Out: filepath.Join(t.TempDir(), "site"), Wasm: wasm, Static: static, Domain: "https://x.org", Compress: fast})
	assert.ErrorContains(t, err, `invalid -domain "https://x.org": that is a URL or a path`)
}

// assertPreviewPNG checks the site ships the preview; cmd/previewgen
// tests what it shows.
func assertPreviewPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1200, 630), img.Bounds())
}
