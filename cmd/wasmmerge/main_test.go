package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/wasmbin"
)

// linked is a module with three data segments, two of them 8 zeros apart,
// as Go's linker writes them.
func linked() []byte {
	data := []byte{3,
		0, 0x41, 0, 0x0b, 2, 'a', 'b',
		0, 0x41, 10, 0x0b, 1, 'c',
		0, 0x41, 12, 0x0b, 1, 'd'}
	return wasmbin.AppendSection([]byte(wasmbin.Magic), 11, data)
}

func TestWritesTheMergedWasmAndSaysWhatItDid(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "app.linked.wasm"), filepath.Join(dir, "app.wasm")
	require.NoError(t, os.WriteFile(in, linked(), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-in", in, "-out", out}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "3 data segments -> 1 (9 zero bytes written back)")
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want := wasmbin.AppendSection([]byte(wasmbin.Magic), 11, []byte{1,
		0, 0x41, 0, 0x0b, 13, 'a', 'b', 0, 0, 0, 0, 0, 0, 0, 0, 'c', 0, 'd'})
	assert.Equal(t, want, got)
	info, err := os.Stat(out)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm())
}

func TestBadInputChangesNothing(t *testing.T) {
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.wasm"), filepath.Join(dir, "bad.wasm")
	out := filepath.Join(dir, "out.wasm")
	require.NoError(t, os.WriteFile(good, linked(), 0o644))
	require.NoError(t, os.WriteFile(bad, []byte("not wasm"), 0o644))
	require.NoError(t, os.WriteFile(out, []byte("the last build"), 0o644))
	for name, c := range map[string]struct {
		args []string
		code int
		want string
	}{
		"no -out":     {[]string{"-in", good}, 2, "-in and -out are both needed"},
		"same file":   {[]string{"-in", good, "-out", good}, 2, "-out must not be -in"},
		"extra arg":   {[]string{"-in", good, "-out", out, "x"}, 2, "unexpected arguments"},
		"bad flag":    {[]string{"-n"}, 2, "flag provided but not defined"},
		"missing":     {[]string{"-in", filepath.Join(dir, "none.wasm"), "-out", out}, 1, "no such file"},
		"not wasm":    {[]string{"-in", bad, "-out", out}, 1, "bad.wasm: not a wasm module"},
		"no such dir": {[]string{"-in", good, "-out", filepath.Join(dir, "none", "out.wasm")}, 1, "no such file"},
	} {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, c.code, run(c.args, &stdout, &stderr))
			assert.Contains(t, stderr.String(), c.want)
			assert.Empty(t, stdout.String())
			kept, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, "the last build", string(kept))
			left, err := filepath.Glob(filepath.Join(dir, ".wasmmerge-*"))
			require.NoError(t, err)
			assert.Empty(t, left, "no temporary file left behind")
		})
	}
}
