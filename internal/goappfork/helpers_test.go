package goappfork

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// repoRoot is the kvleak module root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	return root
}

// forkCopy runs Run on the real go.mod and module cache into a temp dir,
// leaving out the edits named in without.
func forkCopy(t *testing.T, without ...string) Config {
	t.Helper()
	dir := t.TempDir()
	c := Config{
		GoMod:   filepath.Join(repoRoot(t), "go.mod"),
		Out:     filepath.Join(dir, "goapp-wasm"),
		ModFile: filepath.Join(dir, "wasm.mod"),
		Without: without,
	}
	require.NoError(t, Run(c))
	return c
}

// goModVersion is the go-app release go.mod requires.
func goModVersion(t *testing.T) string {
	t.Helper()
	v, err := requiredVersion(filepath.Join(repoRoot(t), "go.mod"))
	require.NoError(t, err)
	return v
}

// realSrc is go-app's pristine directory in the module cache.
func realSrc(t *testing.T) string {
	t.Helper()
	dir, err := moduleDir(repoRoot(t), goModVersion(t))
	require.NoError(t, err)
	return dir
}

// tree maps each file below dir (slash path) to its SHA-256.
func tree(t *testing.T, dir string) map[string][32]byte {
	t.Helper()
	files := map[string][32]byte{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	}))
	return files
}

// copyDir copies src to a new temp dir, writable, and returns it.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	for rel := range tree(t, src) {
		data, err := os.ReadFile(filepath.Join(src, rel))
		require.NoError(t, err)
		require.NoError(t, writeFile(dst, rel, data))
	}
	return dst
}

// goList returns `GOOS=js GOARCH=wasm go list -deps ./wasm` run at the repo
// root, with extra flags (say -modfile) before -deps.
func goList(t *testing.T, flags ...string) []string {
	t.Helper()
	args := append(append([]string{"list"}, flags...), "-deps", "./wasm")
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return strings.Fields(string(out))
}

// testInCopy writes tests (file name in the copy → source) into a fresh
// copy and runs `go test -v -run run pkgs` there, natively and offline
// (-trimpath: the copy's temp dir stays out of the build cache's keys). It
// returns the output; a failure fails t. The tests see the copy's
// unexported names, as its own package.
func testInCopy(t *testing.T, tests map[string]string, run string, pkgs ...string) string {
	t.Helper()
	c := forkCopy(t)
	for rel, src := range tests {
		require.NoError(t, os.WriteFile(filepath.Join(c.Out, filepath.FromSlash(rel)), []byte(src), 0o644))
	}
	cmd := exec.Command("go", append([]string{"test", "-trimpath", "-count=1", "-v", "-run", run}, pkgs...)...)
	cmd.Dir = c.Out
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// testFunc matches a test function's declaration.
var testFunc = regexp.MustCompile(`(?m)^func (Test\w*)\(t \*testing\.T\)`)

// testFuncs are the names of the test functions declared in src.
func testFuncs(src string) []string {
	var names []string
	for _, m := range testFunc.FindAllStringSubmatch(src, -1) {
		names = append(names, m[1])
	}
	return names
}
