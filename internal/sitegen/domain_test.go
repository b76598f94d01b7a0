package sitegen

import (
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

// ogContent is the content of each og: meta tag, in either attribute order.
func ogContent(html string) map[string]string {
	out := map[string]string{}
	re := regexp.MustCompile(`<meta (?:property="(og:[a-z]+)" content="([^"]*)"|content="([^"]*)" property="(og:[a-z]+)")>`)
	for _, m := range re.FindAllStringSubmatch(html, -1) {
		if m[1] != "" {
			out[m[1]] = m[2]
		} else {
			out[m[4]] = m[3]
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

	out = filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Prefix: "/kvleak", Domain: "User.github.io", Compress: fast}))
	og = ogContent(read(t, filepath.Join(out, "index.html")))
	assert.Equal(t, "https://user.github.io/kvleak", og["og:url"])
	assert.Equal(t, "https://user.github.io/kvleak/web/icon-512.png", og["og:image"])

	err := Generate(Config{Out: filepath.Join(t.TempDir(), "site"), Wasm: wasm, Static: static, Domain: "https://x.org", Compress: fast})
	assert.ErrorContains(t, err, `invalid -domain "https://x.org": that is a URL or a path`)
}
