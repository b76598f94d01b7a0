package goappfork

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// removedFeatures are the go-app APIs that the copy's stand-ins (edits
// uuid, regexp-routes, encryption and no-json) turn into errors or panics;
// the playground must not call them (InternalURLs: the site's Handler must
// not set them).
var removedFeatures = []string{"RouteWithRegexp", "Encrypt", "Decrypt", "PersistWithEncryption", "Persist", "Broadcast",
	"LocalStorage", "SessionStorage", "Notifications", "InternalURLs"}

// featureUses lists the selector expressions of a Go file that name one of
// removedFeatures ("ctx.Encrypt", "app.RouteWithRegexp"), with positions.
func featureUses(t *testing.T, fset *token.FileSet, name string, src any) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	require.NoError(t, err)
	var uses []string
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			for _, feature := range removedFeatures {
				if sel.Sel.Name == feature {
					uses = append(uses, fset.Position(sel.Pos()).String()+" "+feature)
				}
			}
		}
		return true
	})
	return uses
}

func TestUIUsesNoneOfTheRemovedFeatures(t *testing.T) {
	fset := token.NewFileSet()
	probe := "package p\nfunc f() { ctx.Encrypt(1); app.RouteWithRegexp(\"^/x\", nil); s.PersistWithEncryption() }\n"
	assert.Len(t, featureUses(t, fset, "probe.go", probe), 3, "the scan finds uses")

	files := 0
	for _, dir := range []string{"web", "wasm", "internal/sitegen"} {
		require.NoError(t, filepath.WalkDir(filepath.Join(repoRoot(t), dir), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return err
			}
			files++
			assert.Empty(t, featureUses(t, fset, p, nil), "the wasm's go-app copy leaves these out (internal/goappfork/edits.go)")
			return nil
		}))
	}
	assert.Greater(t, files, 5, "the UI's files were read")
}

// The tests in testdata/copy run inside a copy, as part of go-app's
// packages: each checks what an edit adds there, and fails to build
// without it.
func TestTheCopyPassesItsOwnTests(t *testing.T) {
	tests := map[string]string{}
	var names []string
	root := filepath.Join("testdata", "copy")
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		tests[filepath.ToSlash(rel)] = string(src)
		names = append(names, testFuncs(string(src))...)
		return nil
	}))
	require.GreaterOrEqual(t, len(names), 6)
	out := testInCopy(t, tests, "^TestKvleak", "./pkg/app", "./pkg/errors")
	for _, name := range names {
		assert.Contains(t, out, "--- PASS: "+name+" ", name)
	}
}
