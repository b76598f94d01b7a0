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
	assert.Equal(t, goappfork.Config{GoMod: "go.mod", Out: "build/goapp-wasm", ModFile: "build/wasm.mod"}, got, "the paths make uses")

	got, err = parseFlags([]string{"-gomod", "a/go.mod", "-src", "/m", "-out", "o", "-modfile", "x/w.mod"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, goappfork.Config{GoMod: "a/go.mod", Src: "/m", Out: "o", ModFile: "x/w.mod"}, got)

	var usage bytes.Buffer
	_, err = parseFlags([]string{"-h"}, &usage)
	require.ErrorIs(t, err, flag.ErrHelp)
	for _, name := range []string{"-gomod", "-src", "-out", "-modfile"} {
		assert.Contains(t, usage.String(), name)
	}
}

// Every failure is one "goappfork: " line: exit 2 for the command line, 1
// for a refusal.
func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	gomod := filepath.Join(dir, "go.mod")
	require.NoError(t, os.WriteFile(gomod, []byte("module m\n\ngo 1.26\n\nrequire "+goappfork.ModulePath+" v10.2.0\n"), 0o644))
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
		{"other go-app", []string{"-gomod", gomod, "-out", filepath.Join(dir, "out"), "-modfile", filepath.Join(dir, "w.mod")},
			exitFail, gomod + " requires " + goappfork.ModulePath + " v10.2.0, but goappfork was written for v10.1.11"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			assert.Equal(t, tc.want, run(tc.args, &stderr))
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
