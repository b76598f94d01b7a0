package goappfork

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlimCopyShape(t *testing.T) {
	c := slim(t)
	src := realSrc(t)
	got := tree(t, c.Out)

	for _, rel := range []string{"pkg/app/http.go", "pkg/app/resource.go"} {
		orig, err := os.ReadFile(filepath.Join(src, rel))
		require.NoError(t, err)
		copied, err := os.ReadFile(filepath.Join(c.Out, rel))
		require.NoError(t, err)
		assert.Equal(t, notWasm+string(orig), string(copied), "%s: constraint prepended, rest untouched", rel)
	}
	for rel := range replacements {
		orig, err := os.ReadFile(filepath.Join(src, rel))
		require.NoError(t, err)
		copied, err := os.ReadFile(filepath.Join(c.Out, rel))
		require.NoError(t, err)
		want := string(orig)
		for _, r := range replacements[rel] {
			want = strings.Replace(want, r.old, r.new, 1)
		}
		assert.Equal(t, want, string(copied), "%s: only the replacements", rel)
		assert.NotContains(t, string(copied), "uuid.", rel)
		assert.NotContains(t, string(copied), `"regexp"`, rel)
		assert.NotContains(t, string(copied), `"encoding/json"`, rel)
	}
	for rel, data := range added {
		copied, err := os.ReadFile(filepath.Join(c.Out, rel))
		require.NoError(t, err)
		assert.Equal(t, string(data), string(copied), "%s: as embedded", rel)
	}
	assert.NotContains(t, got, "pkg/app/wasm.go")
	assert.NotContains(t, got, "pkg/app/crypto.go")
	assert.Contains(t, got, "pkg/app/client_wasm.go")
	assert.Contains(t, got, "pkg/app/slim.go")
	assert.Contains(t, got, "pkg/app/app.go")
	assert.Contains(t, got, "pkg/errors/errors.go")
	assert.Contains(t, got, "LICENSE")
	for rel := range got {
		assert.False(t, strings.HasSuffix(rel, "_test.go"), "test file copied: %s", rel)
		ok := rel == "go.mod" || rel == "go.sum" || rel == "LICENSE" ||
			strings.HasSuffix(rel, ".go") && (filepath.Dir(rel) == "pkg/app" || filepath.Dir(rel) == "pkg/errors") ||
			rel == "pkg/internal/nojson/nojson.go"
		assert.True(t, ok, "not needed by a build: %s", rel)
	}

	mod, err := os.ReadFile(c.ModFile)
	require.NoError(t, err)
	gomod, err := os.ReadFile(c.GoMod)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(mod), string(gomod)), "the modfile starts with go.mod")
	assert.Contains(t, string(mod), "\nreplace "+ModulePath+" => \"../", "a replace relative to go.mod's directory")
	sum, err := os.ReadFile(strings.TrimSuffix(c.ModFile, ".mod") + ".sum")
	require.NoError(t, err)
	gosum, err := os.ReadFile(filepath.Join(filepath.Dir(c.GoMod), "go.sum"))
	require.NoError(t, err)
	assert.Equal(t, string(gosum), string(sum))
}

// The embedded helpers must stay verbatim copies of resource.go's.
func TestClientHelpersAreVerbatim(t *testing.T) {
	resource, err := os.ReadFile(filepath.Join(realSrc(t), "pkg/app/resource.go"))
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

func TestRunIsIdempotentAndDeterministic(t *testing.T) {
	c := slim(t)
	first := tree(t, c.Out)
	firstMod, err := os.ReadFile(c.ModFile)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(c.Out, "pkg/app/stale.go"), []byte("package app\n"), 0o644))

	require.NoError(t, Run(c))
	assert.Equal(t, first, tree(t, c.Out), "same files, same bytes; the stale one gone")
	mod, err := os.ReadFile(c.ModFile)
	require.NoError(t, err)
	assert.Equal(t, string(firstMod), string(mod))
	leftovers, err := filepath.Glob(filepath.Join(filepath.Dir(c.Out), ".goappfork-*"))
	require.NoError(t, err)
	assert.Empty(t, leftovers)
}

func TestRefusesTamperedSource(t *testing.T) {
	src := realSrc(t)
	require.ElementsMatch(t, []string{"pkg/app/browser.go", "pkg/app/context.go", "pkg/app/crypto.go", "pkg/app/engine.go", "pkg/app/http.go", "pkg/app/js_wasm.go",
		"pkg/app/resource.go", "pkg/app/route.go", "pkg/app/state.go", "pkg/app/wasm.go",
		"pkg/app/storage.go", "pkg/app/notification.go", "pkg/app/strings.go", "pkg/errors/errors.go"},
		slices.Collect(maps.Keys(originals)), "the files whose sums are pinned")
	for rel := range originals {
		t.Run(rel, func(t *testing.T) {
			tampered := copyDir(t, src)
			name := filepath.Join(tampered, rel)
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(name, append(data, "\n// upgraded\n"...), 0o644))
			c := slim(t) // a good run first: the refusal must leave it alone
			before := tree(t, c.Out)

			c.Src = tampered
			err = Run(c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), rel+" in "+tampered+" differs from go-app v10.1.11's")
			assert.NotContains(t, err.Error(), "\n")
			assert.Equal(t, before, tree(t, c.Out))
		})
	}
	t.Run("untampered copy passes", func(t *testing.T) {
		c := slim(t)
		c.Src = copyDir(t, src)
		require.NoError(t, Run(c))
	})
}

func TestRefusesOtherGoApp(t *testing.T) {
	tests := []struct{ name, gomod, wantErr string }{
		{"newer version", "module m\n\ngo 1.26\n\nrequire " + ModulePath + " v10.1.12\n",
			"requires " + ModulePath + " v10.1.12, but goappfork was written for v10.1.11"},
		{"older version", "module m\n\ngo 1.26\n\nrequire " + ModulePath + " v10.0.0\n",
			"requires " + ModulePath + " v10.0.0, but"},
		{"not required", "module m\n\ngo 1.26\n", "does not require " + ModulePath},
		{"already replaced", "module m\n\ngo 1.26\n\nrequire " + ModulePath + " v10.1.11\n\nreplace " + ModulePath + " => ./x\n",
			"already replaces " + ModulePath},
		{"unparsable", "module m\nrequire (\n", "go mod edit -json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			gomod := filepath.Join(dir, "go.mod")
			require.NoError(t, os.WriteFile(gomod, []byte(tc.gomod), 0o644))
			c := Config{GoMod: gomod, Src: realSrc(t), Out: filepath.Join(dir, "out"), ModFile: filepath.Join(dir, "wasm.mod")}
			err := Run(c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.wantErr)
			assert.NotContains(t, err.Error(), "\n")
			assert.NoDirExists(t, c.Out)
			assert.NoFileExists(t, c.ModFile)
		})
	}
}

func TestRefusesToReplaceOtherDirs(t *testing.T) {
	c := slim(t)
	foreign := t.TempDir()
	keep := filepath.Join(foreign, "keep.txt")
	require.NoError(t, os.WriteFile(keep, []byte("mine"), 0o644))

	c.Out = foreign
	err := Run(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refusing to replace "+foreign+": it is not a copy of "+ModulePath)
	assert.FileExists(t, keep)

	c.Out = realSrc(t)
	c.Src = c.Out
	err = Run(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "it is the source")
}

func TestValidate(t *testing.T) {
	good := Config{GoMod: "go.mod", Out: "build/goapp-wasm", ModFile: "build/wasm.mod"}
	require.NoError(t, good.Validate())
	bad := map[string]func(*Config){
		"invalid -gomod: empty":                func(c *Config) { c.GoMod = "" },
		"invalid -out: empty":                  func(c *Config) { c.Out = "" },
		"invalid -modfile: empty":              func(c *Config) { c.ModFile = "" },
		`"build/wasm.txt": must end in .mod`:   func(c *Config) { c.ModFile = "build/wasm.txt" },
		`"x/go.mod": must not be named go.mod`: func(c *Config) { c.ModFile = "x/go.mod" },
	}
	for want, change := range bad {
		c := good
		change(&c)
		err := c.Validate()
		require.Error(t, err, want)
		assert.Contains(t, err.Error(), want)
	}
}

// Every edited file is pinned, and a replacement that no longer matches
// exactly once is refused rather than skipped.
func TestReplaceIsExact(t *testing.T) {
	for rel := range replacements {
		assert.Contains(t, originals, rel, "an edited file must have its sum pinned")
	}
	_, err := replace("pkg/app/route.go", []byte("package app\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "pkg/app/route.go: \"import (")
	assert.Contains(t, err.Error(), "occurs 0 times, not once")
	twice := "id = uuid.NewString()\n\t\"github.com/google/uuid\"\n\t\"github.com/google/uuid\"\n"
	_, err = replace("pkg/app/context.go", []byte(twice))
	assert.ErrorContains(t, err, "occurs 2 times")
}
