package goappfork

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
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

// slim runs the tool on the real go.mod and module cache into a temp dir.
func slim(t *testing.T) Config {
	t.Helper()
	dir := t.TempDir()
	c := Config{
		GoMod:   filepath.Join(repoRoot(t), "go.mod"),
		Out:     filepath.Join(dir, "goapp-wasm"),
		ModFile: filepath.Join(dir, "wasm.mod"),
	}
	require.NoError(t, Run(c))
	return c
}

// realSrc is go-app's pristine directory in the module cache.
func realSrc(t *testing.T) string {
	t.Helper()
	dir, err := moduleDir(repoRoot(t))
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

// goTestInCopy runs `go test -run run pkgs` natively inside the slim copy
// at dir, offline (-trimpath: the copy's temp dir stays out of the build
// cache's keys), and returns its output; a failure fails t.
func goTestInCopy(t *testing.T, dir, run string, pkgs ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"test", "-trimpath", "-count=1", "-run", run}, pkgs...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}
