package precompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unbr(t *testing.T, b []byte) []byte {
	out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b)))
	require.NoError(t, err)
	return out
}

func ungz(t *testing.T, b []byte) []byte {
	r, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	out, err := io.ReadAll(r)
	require.NoError(t, err)
	return out
}

func TestRoundTrip(t *testing.T) {
	in := []byte(strings.Repeat("kv page slot leaked across tenants\n", 200))
	for _, q := range []int{1, 9, 11} {
		br, err := Brotli(in, q)
		require.NoError(t, err)
		assert.Less(t, len(br), len(in))
		assert.Equal(t, in, unbr(t, br), "quality %d", q)
	}
	gz, err := Gzip(in)
	require.NoError(t, err)
	assert.Equal(t, in, ungz(t, gz))

	again, err := Gzip(in)
	require.NoError(t, err)
	assert.Equal(t, gz, again, "gzip output must not depend on time")
}

func TestTwins(t *testing.T) {
	assert.Equal(t, []string{"web/app.wasm.br", "web/app.wasm.gz"}, Twins("web/app.wasm"))
	for _, n := range []string{"a.js", "a.CSS", "index.html", "i.svg", "manifest.webmanifest", "x.json", "robots.txt", "trace.csv"} {
		assert.Len(t, Twins(n), 2, n)
	}
	for _, n := range []string{"icon.png", "app.wasm.br", "app.wasm.gz", "README", "photo.jpg"} {
		assert.Nil(t, Twins(n), n)
	}
}

func write(t *testing.T, dir, name string, b []byte) {
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, b, 0o644))
}

func listFiles(t *testing.T, dir string) []string {
	var names []string
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	}))
	return names
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	big := []byte(strings.Repeat("<p>prerendered playground</p>\n", 500))
	write(t, dir, "index.html", big)
	write(t, dir, "web/app.css", big)
	write(t, dir, "web/icon.png", big) // not compressible by extension
	write(t, dir, "tiny.txt", []byte("x"))
	// Small LargeBytes so the large-file quality path runs too.
	opts := Options{LargeBytes: 4096, LargeQuality: 5}

	require.NoError(t, Dir(dir, opts))
	want := []string{
		"index.html", "index.html.br", "index.html.gz", "tiny.txt",
		"web/app.css", "web/app.css.br", "web/app.css.gz", "web/icon.png",
	}
	assert.ElementsMatch(t, want, listFiles(t, dir), "tiny.txt compresses bigger, so no twin")

	br, err := os.ReadFile(filepath.Join(dir, "index.html.br"))
	require.NoError(t, err)
	assert.Equal(t, big, unbr(t, br))
	gz, err := os.ReadFile(filepath.Join(dir, "web/app.css.gz"))
	require.NoError(t, err)
	assert.Equal(t, big, ungz(t, gz))

	// A re-run makes no twins of twins and gives the same bytes.
	require.NoError(t, Dir(dir, opts))
	assert.ElementsMatch(t, want, listFiles(t, dir))
	br2, err := os.ReadFile(filepath.Join(dir, "index.html.br"))
	require.NoError(t, err)
	assert.Equal(t, br, br2)

	// A changed original gets fresh twins, and a stale one goes away.
	write(t, dir, "web/app.css", []byte("a{}"))
	require.NoError(t, Dir(dir, opts))
	assert.NoFileExists(t, filepath.Join(dir, "web/app.css.br"))
	assert.NoFileExists(t, filepath.Join(dir, "web/app.css.gz"))
}

func TestQuality(t *testing.T) {
	var o Options
	assert.Equal(t, 11, o.quality(10))
	assert.Equal(t, 10, o.quality(8<<20))
	o = Options{Quality: 4, LargeQuality: 2, LargeBytes: 100}
	assert.Equal(t, 4, o.quality(99))
	assert.Equal(t, 2, o.quality(100))
}
