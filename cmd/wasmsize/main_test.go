package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const header = "\x00asm\x01\x00\x00\x00"

// Two bodies (4 and 2 bytes after their prefix) and, if named, a name
// section calling them runtime.main and kvleak_web.F.
func module(named bool) []byte {
	b := []byte(header)
	b = append(b, 10, 9, 2, 4, 0, 0, 0, 0, 2, 0, 0) // code
	if named {
		sub := append([]byte{2, 0, 12}, "runtime.main"...)
		sub = append(sub, 1, 12)
		sub = append(sub, "kvleak_web.F"...)
		payload := append([]byte{4}, "name"...)
		payload = append(payload, 1, byte(len(sub)))
		payload = append(payload, sub...)
		b = append(b, 0, byte(len(payload)))
		b = append(b, payload...)
	}
	return b
}

func files(t *testing.T, named, shipped []byte) (dir string, args []string) {
	dir = t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	return dir, []string{"-wasm", write("names.wasm", named), "-shipped", write("app.wasm", shipped),
		"-pkgs", write("pkgs.txt", []byte("runtime\nkvleak/web kvleak\n")), "-out", filepath.Join(dir, "size.txt")}
}

func TestWritesTheTableTwice(t *testing.T) {
	dir, args := files(t, module(true), module(false))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(args, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "runtime\n")
	assert.Contains(t, stdout.String(), "kvleak/web\n")
	saved, err := os.ReadFile(filepath.Join(dir, "size.txt"))
	require.NoError(t, err)
	assert.Equal(t, stdout.String(), string(saved))
}

func TestRefusesOtherBuilds(t *testing.T) {
	for name, tc := range map[string]struct {
		named, shipped []byte
		want           string
	}{
		"no names":       {module(false), module(false), "has no name section: link it without -s"},
		"different code": {module(true), append(module(false)[:len(header)], 10, 8, 2, 3, 0, 0, 0, 2, 0, 0), "not the same build"},
	} {
		_, args := files(t, tc.named, tc.shipped)
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 1, run(args, &stdout, &stderr), name)
		assert.Contains(t, stderr.String(), tc.want, name)
		assert.Empty(t, stdout.String(), name)
	}
}

// -brotli prints each file's brotli bytes and the difference from the
// first's.
func TestBrotliSizes(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.wasm"), filepath.Join(dir, "large.wasm")
	require.NoError(t, os.WriteFile(small, bytes.Repeat([]byte("a"), 1000), 0o644))
	random := make([]byte, 1000)
	for i := range random {
		random[i] = byte(i * i * 7919 >> 3)
	}
	require.NoError(t, os.WriteFile(large, random, 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"-brotli", small, large}, &stdout, &stderr), stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 2)
	assert.Regexp(t, `small\.wasm +\d+ B brotli$`, lines[0])
	assert.Regexp(t, `large\.wasm +\d+ B brotli, \+\d+ B$`, lines[1])

	assert.Equal(t, 1, run([]string{"-brotli", small, filepath.Join(dir, "none.wasm")}, &stdout, &stderr))
	assert.Equal(t, 1, run([]string{"-brotli"}, &stdout, &stderr))
}
