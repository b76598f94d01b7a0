// Package goapp holds kvleak's patches of go-app (*.patch), which
// copy.sh applies to the copy the wasm links, and tests them: what each
// keeps out of the wasm, and that each says why it is made and what tests
// it. docs/upgrading-go-app.md explains the patches and how to upgrade.
package goapp

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/maxence-charriere/go-app/v10"

// patch is one patch file and what its header says.
type patch struct {
	name     string   // file name without .patch: what make fork-sizes and the docs call it
	path     string   // absolute
	why      string   // the header's first line
	keepsOut []string // packages the wasm links without the patch, not with it
	tests    []string // tests that fail without it
}

// patches reads every patch's header: the text before its first diff,
// which git apply skips.
func patches(t *testing.T) []patch {
	t.Helper()
	files, err := filepath.Glob("*.patch")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []patch
	for _, f := range files {
		abs, err := filepath.Abs(f)
		require.NoError(t, err)
		p := patch{name: strings.TrimSuffix(f, ".patch"), path: abs}
		file, err := os.Open(f)
		require.NoError(t, err)
		s := bufio.NewScanner(file)
		for s.Scan() && !strings.HasPrefix(s.Text(), "diff --git ") {
			line := s.Text()
			if p.why == "" {
				p.why = line
			}
			if v, ok := strings.CutPrefix(line, "Keeps out:"); ok {
				p.keepsOut = strings.Fields(v)
			}
			if v, ok := strings.CutPrefix(line, "Tests:"); ok {
				p.tests = strings.Fields(v)
			}
		}
		require.NoError(t, file.Close())
		out = append(out, p)
	}
	return out
}

// repoRoot is the kvleak module root, two levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	require.FileExists(t, filepath.Join(root, "go.mod"))
	return root
}

// forkCopy runs copy.sh as make does, into a temp dir, with every patch
// but those named in without, and returns the copy's directory and modfile.
func forkCopy(t *testing.T, without ...string) (dir, modfile string) {
	t.Helper()
	tmp := t.TempDir()
	dir, modfile = filepath.Join(tmp, "goapp"), filepath.Join(tmp, "wasm.mod")
	args := []string{"patches/goapp/copy.sh", dir, modfile}
	for _, p := range patches(t) {
		if !slices.Contains(without, p.name) {
			args = append(args, p.path)
		}
	}
	cmd := exec.Command("sh", args...)
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir, modfile
}

// goList returns `GOOS=js GOARCH=wasm go list -deps ./wasm` at the repo
// root, with flags (say -modfile) before -deps.
func goList(t *testing.T, flags ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"list"}, flags...), "-deps", "./wasm")...)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return strings.Fields(string(out))
}

// With every patch, the wasm links none of what the patches keep out (the
// pristine module links each, or this test could not fail), and no crypto
// package at all.
func TestTheCopyLinksNoneOfWhatThePatchesKeepOut(t *testing.T) {
	_, modfile := forkCopy(t)
	pristine := goList(t)
	deps := goList(t, "-modfile", modfile)
	assert.Contains(t, deps, module+"/pkg/app", "the wasm still links go-app")
	for _, p := range patches(t) {
		for _, pkg := range p.keepsOut {
			assert.Contains(t, pristine, pkg, "the pristine module links it")
			assert.NotContains(t, deps, pkg, "patch %s", p.name)
		}
	}
	for _, pkg := range deps {
		assert.False(t, strings.HasPrefix(pkg, "crypto"), "the wasm links %s", pkg)
	}
}

// Each patch applies without any other (make fork-sizes builds the copy
// without each), and each that keeps packages out is what keeps them out:
// without it, they are linked again.
func TestEachPatchKeepsItsPackagesOut(t *testing.T) {
	for _, p := range patches(t) {
		t.Run(p.name, func(t *testing.T) {
			_, modfile := forkCopy(t, p.name)
			if len(p.keepsOut) == 0 {
				return
			}
			deps := goList(t, "-modfile", modfile)
			for _, pkg := range p.keepsOut {
				assert.Contains(t, deps, pkg, "without patch %s", p.name)
			}
		})
	}
}

// testFunc matches a test function's declaration, in a test file or
// added by a patch.
var testFunc = regexp.MustCompile(`(?m)^\+?func (Test\w*)\(t \*testing\.T\)`)

// Each patch says what it does and why, names tests that exist in the
// repository or in a patch, and has its row in the upgrade doc.
func TestEveryPatchIsAccountedFor(t *testing.T) {
	tests := map[string]bool{}
	require.NoError(t, filepath.WalkDir(repoRoot(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "build" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") && !strings.HasSuffix(p, ".patch") {
			return nil
		}
		src, err := os.ReadFile(p)
		for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
			tests[m[1]] = true
		}
		return err
	}))
	require.True(t, tests["TestKvleakRenderGate"], "the walk reads the patches' tests")
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), "docs", "upgrading-go-app.md"))
	require.NoError(t, err)
	for _, p := range patches(t) {
		assert.True(t, strings.HasPrefix(p.why, p.name+": "), "%s.patch starts with its name and what it does: %q", p.name, p.why)
		assert.NotEmpty(t, p.tests, "%s.patch names its tests", p.name)
		for _, test := range p.tests {
			assert.True(t, tests[test], "%s.patch: no test %s", p.name, test)
		}
		assert.Contains(t, string(doc), "`"+p.name+"`", "docs/upgrading-go-app.md")
	}
}

// The helpers the patch server-half adds back must stay verbatim copies
// of resource.go's, which the copy builds for !wasm only.
func TestClientHelpersAreVerbatim(t *testing.T) {
	dir, _ := forkCopy(t)
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module)
	cmd.Dir = repoRoot(t)
	src, err := cmd.Output()
	require.NoError(t, err)
	resource, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(src)), "pkg/app/resource.go"))
	require.NoError(t, err)
	clientWasm, err := os.ReadFile(filepath.Join(dir, "pkg/app/client_wasm.go"))
	require.NoError(t, err)
	_, body, ok := strings.Cut(string(clientWasm), "import \"strings\"\n")
	require.True(t, ok)
	funcs := strings.Split(strings.TrimSpace(body), "\n\nfunc ")
	require.Len(t, funcs, 3)
	for i, f := range funcs {
		if i > 0 {
			f = "func " + f
		}
		assert.Contains(t, string(resource), "\n"+f+"\n")
	}
}

// removedFeatures are the go-app APIs the patches uuid, regexp-routes,
// encryption and no-json turn into errors or panics; the playground must
// not call them (InternalURLs: the site's Handler must not set them).
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
		if sel, ok := n.(*ast.SelectorExpr); ok && slices.Contains(removedFeatures, sel.Sel.Name) {
			uses = append(uses, fset.Position(sel.Pos()).String()+" "+sel.Sel.Name)
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
			assert.Empty(t, featureUses(t, fset, p, nil), "the wasm's copy of go-app leaves these out (patches/goapp)")
			return nil
		}))
	}
	assert.Greater(t, files, 5, "the UI's files were read")
}
