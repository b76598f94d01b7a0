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

// With every edit, the wasm links none of what the edits keep out (the
// pristine module links each, or this test could not fail), no crypto
// package at all, and still builds.
func TestTheCopyLinksNoneOfWhatTheEditsKeepOut(t *testing.T) {
	c := forkCopy(t)
	pristine := goList(t)
	deps := goList(t, "-modfile", c.ModFile)
	assert.Contains(t, deps, ModulePath+"/pkg/app", "the wasm still links go-app")
	for _, e := range Edits {
		for _, pkg := range e.keepsOut {
			assert.Contains(t, pristine, pkg, "the pristine module links it")
			assert.NotContains(t, deps, pkg, "edit %s", e.Name)
		}
	}
	for _, pkg := range deps {
		assert.False(t, strings.HasPrefix(pkg, "crypto"), "the wasm links %s", pkg)
	}

	cmd := exec.Command("go", "build", "-modfile", c.ModFile, "-trimpath", "-o", filepath.Join(t.TempDir(), "app.wasm"), "./wasm")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}

// Each edit that keeps packages out is what keeps them out: without it,
// they are linked again.
func TestEachEditKeepsItsPackagesOut(t *testing.T) {
	for _, e := range Edits {
		if len(e.keepsOut) == 0 {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			deps := goList(t, "-modfile", forkCopy(t, e.Name).ModFile)
			for _, pkg := range e.keepsOut {
				assert.Contains(t, deps, pkg, "without edit %s", e.Name)
			}
		})
	}
}

// Every go-app package the wasm imports must be in packages, or the copy
// would lack it.
func TestPackagesCoverTheApp(t *testing.T) {
	for _, pkg := range goList(t) {
		if rel, ok := strings.CutPrefix(pkg, ModulePath+"/"); ok {
			assert.True(t, slices.Contains(packages, rel), "the wasm imports %s", pkg)
		}
	}
}
