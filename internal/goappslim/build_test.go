package goappslim

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The point of the copy: the wasm stops linking the server half. The list
// without the modfile must hold net/http, or this test could not fail.
func TestSlimWasmDropsNetHTTP(t *testing.T) {
	c := slim(t)
	assert.True(t, slices.Contains(goList(t), "net/http"), "the pristine module links net/http")
	slimDeps := goList(t, "-modfile", c.ModFile)
	assert.True(t, slices.Contains(slimDeps, ModulePath+"/pkg/app"), "the slim wasm still links go-app")
	for _, pkg := range []string{"net/http", "crypto/tls", "crypto/x509"} {
		assert.False(t, slices.Contains(slimDeps, pkg), "the slim wasm links %s", pkg)
	}

	cmd := exec.Command("go", "build", "-modfile", c.ModFile, "-trimpath", "-o", filepath.Join(t.TempDir(), "app.wasm"), "./wasm")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// Every go-app package the wasm imports must be in packages, or the slim
// copy would lack it.
func TestPackagesCoverTheApp(t *testing.T) {
	for _, pkg := range goList(t) {
		if rel, ok := strings.CutPrefix(pkg, ModulePath+"/"); ok {
			assert.Contains(t, packages, rel)
		}
	}
}
