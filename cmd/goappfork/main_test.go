package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/goappfork"
)

func TestParseFlags(t *testing.T) {
	got, err := parseFlags(nil, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, options{Config: goappfork.Config{GoMod: "go.mod", Out: "build/goapp-wasm", ModFile: "build/wasm.mod"}}, got, "the paths make uses")

	got, err = parseFlags([]string{"-gomod", "a/go.mod", "-src", "/m", "-out", "o", "-modfile", "x/w.mod", "-without", "uuid,no-json"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, options{Config: goappfork.Config{GoMod: "a/go.mod", Src: "/m", Out: "o", ModFile: "x/w.mod", Without: []string{"uuid", "no-json"}}}, got)

	got, err = parseFlags([]string{"-sizes", "a.wasm", "b.wasm"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.True(t, got.sizes)
	assert.Equal(t, []string{"a.wasm", "b.wasm"}, got.wasms)

	var usage bytes.Buffer
	_, err = parseFlags([]string{"-h"}, &usage)
	require.ErrorIs(t, err, flag.ErrHelp)
	for _, name := range []string{"-gomod", "-src", "-out", "-modfile", "-without", "-list", "-names", "-sizes", "-hashes"} {
		assert.Contains(t, usage.String(), name)
	}
}

// -list prints every edit with why, what it buys and its tests; -names
// the copy's edits, which make fork-sizes builds without.
func TestListAndNames(t *testing.T) {
	var list, names, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"-list"}, &list, &stderr), stderr.String())
	require.Equal(t, exitOK, run([]string{"-names"}, &names, &stderr), stderr.String())
	for _, e := range goappfork.Edits {
		assert.Contains(t, list.String(), e.Name+"\n  why:   "+e.Reason+"\n  buys:  "+e.Buys+"\n")
	}
	assert.Equal(t, strings.Join(goappfork.CopyEditNames(), "\n")+"\n", names.String())
	assert.Contains(t, names.String(), "server-half\n")
	assert.NotContains(t, names.String(), "wasm-compile", "a script edit is made by gensite, not in the copy")
}

// -sizes prints each file's brotli bytes and the difference from the first.
func TestSizes(t *testing.T) {
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small.wasm"), filepath.Join(dir, "large.wasm")
	require.NoError(t, os.WriteFile(small, bytes.Repeat([]byte("a"), 1000), 0o644))
	random := make([]byte, 1000)
	for i := range random {
		random[i] = byte(i * i * 7919 >> 3)
	}
	require.NoError(t, os.WriteFile(large, random, 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"-sizes", small, large}, &stdout, &stderr), stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	require.Len(t, lines, 2)
	assert.Regexp(t, `small\.wasm +\d+ B brotli$`, lines[0])
	assert.Regexp(t, `large\.wasm +\d+ B brotli, \+\d+ B$`, lines[1])

	assert.Equal(t, exitFail, run([]string{"-sizes", small, filepath.Join(dir, "none.wasm")}, &stdout, &stderr))
}

// Every failure is one "goappfork: " line: exit 2 for the command line, 1
// for a refusal.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	gomod := filepath.Join(dir, "go.mod")
	require.NoError(t, os.WriteFile(gomod, []byte("module m\n\ngo 1.26\n\nrequire "+goappfork.ModulePath+" v10.2.0\n"), 0o644))
	out := []string{"-gomod", gomod, "-out", filepath.Join(dir, "out"), "-modfile", filepath.Join(dir, "w.mod")}
	tests := []struct {
		name    string
		args    []string
		want    int
		wantErr string
	}{
		{"help", []string{"-help"}, exitOK, ""},
		{"empty gomod", []string{"-gomod", ""}, exitUsage, "invalid -gomod: empty"},
		{"empty out", []string{"-out="}, exitUsage, "invalid -out: empty"},
		{"empty modfile", []string{"-modfile", ""}, exitUsage, "invalid -modfile: empty"},
		{"modfile without .mod", []string{"-modfile", "build/wasm"}, exitUsage, `invalid -modfile "build/wasm": must end in .mod`},
		{"modfile named go.mod", []string{"-modfile", "build/go.mod"}, exitUsage, "must not be named go.mod"},
		{"missing value", []string{"-out"}, exitUsage, "flag needs an argument: -out"},
		{"unknown flag", []string{"-o", "x"}, exitUsage, "flag provided but not defined: -o"},
		{"stray argument", []string{"build"}, exitUsage, `unexpected argument "build"`},
		{"unknown edit", []string{"-without", "uuid,nope"}, exitUsage, `invalid -without "nope": the copy's edits are server-half,`},
		{"two modes", []string{"-list", "-hashes"}, exitUsage, "one at a time"},
		{"sizes of nothing", []string{"-sizes"}, exitUsage, "-sizes: no wasm file given"},
		{"other go-app", out, exitFail, gomod + " requires " + goappfork.ModulePath + " v10.2.0, which internal/goappfork's edits were not checked against (known: v10.1.11): see docs/upgrading-go-app.md"},
		{"hashes of a go.mod without go-app", []string{"-hashes", "-gomod", filepath.Join(dir, "none.mod")}, exitFail, "go mod edit -json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tc.want, run(tc.args, &stdout, &stderr))
			if tc.want == exitOK {
				assert.Contains(t, stderr.String(), "usage: goappfork")
				return
			}
			assert.True(t, strings.HasPrefix(stderr.String(), "goappfork: "), stderr.String())
			assert.Contains(t, stderr.String(), tc.wantErr)
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line, no usage dump")
		})
	}
}
