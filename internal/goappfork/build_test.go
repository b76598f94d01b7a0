package goappfork

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

// The point of the copy: the wasm stops linking the server half, the uuid
// module, crypto, math/big, regexp and encoding/json. The pristine list must hold each, or
// this test could not fail.
func TestSlimWasmDropsWhatTheUIDoesNotUse(t *testing.T) {
	c := slim(t)
	pristine := goList(t)
	slimDeps := goList(t, "-modfile", c.ModFile)
	assert.True(t, slices.Contains(slimDeps, ModulePath+"/pkg/app"), "the slim wasm still links go-app")
	for _, pkg := range []string{"net/http", "crypto/tls", "crypto/x509", "github.com/google/uuid",
		"crypto/rand", "crypto/aes", "crypto/cipher", "crypto/sha1", "crypto/md5", "math/big", "regexp", "encoding/json"} {
		assert.True(t, slices.Contains(pristine, pkg), "the pristine module links %s", pkg)
		assert.False(t, slices.Contains(slimDeps, pkg), "the slim wasm links %s", pkg)
	}
	for _, pkg := range slimDeps {
		assert.False(t, strings.HasPrefix(pkg, "crypto"), "the slim wasm links %s", pkg)
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
