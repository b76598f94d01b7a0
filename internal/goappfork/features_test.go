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

// removedFeatures are the go-app APIs that the copy's stand-ins (slim.go.txt,
// nojson.go.txt) turn into errors or panics; the playground must not call
// them (InternalURLs: the site's Handler must not set them).
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

// newUUID's formatting, checked against the uuid module it replaces: the
// test runs natively inside a slim copy, where slim.go is package app
// (-trimpath: the copy's temp dir stays out of the build cache's keys).
func TestFormatUUIDMatchesTheUUIDModule(t *testing.T) {
	c := slim(t)
	test := `package app

import (
	"testing"

	"github.com/google/uuid"
)

func TestKvleakFormatUUID(t *testing.T) {
	for _, b := range [][16]byte{{}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}} {
		s := formatUUID(b)
		u, err := uuid.Parse(s)
		if err != nil || u.Version() != 4 || u.Variant() != uuid.RFC4122 || u.String() != s {
			t.Errorf("formatUUID(%x) = %q: %v, version %d, variant %v", b, s, err, u.Version(), u.Variant())
		}
		// Only the version and variant bits differ from the input.
		b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
		if uuid.UUID(b).String() != s {
			t.Errorf("formatUUID(%x) = %q, want %q", b, s, uuid.UUID(b).String())
		}
	}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(c.Out, "pkg/app/kvleak_uuid_test.go"), []byte(test), 0o644))
	assert.Contains(t, goTestInCopy(t, c.Out, "^TestKvleakFormatUUID$", "./pkg/app"), "ok")
}

// In the copy, go-app's errors read as text (errors_slim.go.txt) and its
// JSON-based storage is an error, not a silent no-op. The test runs
// natively inside a slim copy, as TestFormatUUIDMatchesTheUUIDModule does.
func TestTheCopyWritesErrorsAsTextAndRefusesJSONStorage(t *testing.T) {
	c := slim(t)
	errorsTest := `package errors

import (
	"io"
	"strings"
	"testing"
)

func TestKvleakErrorsAsText(t *testing.T) {
	err := New("setting storage value failed").WithTag("key", "k").WithTag("at", 2).Wrap(io.EOF)
	got := err.Error()
	if !strings.HasPrefix(got, "setting storage value failed at=2 key=k (") || !strings.HasSuffix(got, "): EOF") {
		t.Errorf("Error() = %q", got)
	}
	SetIndentEncoder()
	if again := err.Error(); again != got {
		t.Errorf("with the indent encoder: %q, want %q", again, got)
	}
}
`
	appTest := `package app

import (
	"strings"
	"testing"
)

func TestKvleakStorageRefusesJSON(t *testing.T) {
	s := newMemoryStorage()
	if err := s.Set("k", 1); err == nil || !strings.Contains(err.Error(), "left out of this wasm build") {
		t.Errorf("Set: %v", err)
	}
	var v int
	s.data["k"] = []byte("1")
	if err := s.Get("k", &v); err == nil {
		t.Error("Get: no error")
	}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(c.Out, "pkg/errors/kvleak_text_test.go"), []byte(errorsTest), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(c.Out, "pkg/app/kvleak_storage_test.go"), []byte(appTest), 0o644))
	out := goTestInCopy(t, c.Out, "^TestKvleak", "./pkg/errors", "./pkg/app")
	assert.Equal(t, 2, strings.Count(out, "ok "), "%s", out)
}
