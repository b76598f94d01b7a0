package goappfork

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The copy is go-app's files with the edits made, the files they add, and
// nothing a build does not need; the modfile is go.mod plus a replace.
func TestCopyShape(t *testing.T) {
	c := forkCopy(t)
	src := realSrc(t)
	got := tree(t, c.Out)

	for _, rel := range editedFiles() {
		orig, err := os.ReadFile(filepath.Join(src, rel))
		require.NoError(t, err)
		want, keep := string(orig), true
		for _, e := range Edits {
			if slices.Contains(e.omit, rel) {
				keep = false
			}
			if slices.Contains(e.notWasm, rel) {
				want = notWasm + want
			}
			for _, r := range e.replace[rel] {
				assert.NotEqual(t, r.old, r.new, "edit %s changes %s", e.Name, rel)
				want = strings.Replace(want, r.old, r.new, 1)
			}
		}
		if !keep {
			assert.NotContains(t, got, rel, "left out")
			continue
		}
		copied, err := os.ReadFile(filepath.Join(c.Out, rel))
		require.NoError(t, err)
		assert.Equal(t, want, string(copied), "%s: only the edits", rel)
		for _, gone := range []string{"uuid.", `"regexp"`, `"encoding/json"`} {
			if rel != "pkg/app/http.go" && rel != "pkg/app/resource.go" && rel != scriptsSource {
				assert.NotContains(t, string(copied), gone, rel)
			}
		}
	}
	for _, e := range Edits {
		for _, rel := range e.add {
			data, err := addedFile(rel)
			require.NoError(t, err)
			copied, err := os.ReadFile(filepath.Join(c.Out, rel))
			require.NoError(t, err)
			assert.Equal(t, string(data), string(copied), "%s: as embedded", rel)
		}
	}
	assert.Contains(t, got, "pkg/app/app.go")
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

// A copy without an edit has go-app's file where the edit changed it and
// none of the files the edit adds: how make fork-sizes measures it.
func TestWithoutLeavesTheEditOut(t *testing.T) {
	c := forkCopy(t, noUUID.Name, encryption.Name)
	src := realSrc(t)
	context, err := os.ReadFile(filepath.Join(c.Out, "pkg/app/context.go"))
	require.NoError(t, err)
	assert.Contains(t, string(context), "uuid.NewString()")
	assert.NotContains(t, string(context), `"encoding/json"`, "the other edits are made")
	assert.NoFileExists(t, filepath.Join(c.Out, "pkg/app/kvleak_uuid.go"))
	assert.NoFileExists(t, filepath.Join(c.Out, "pkg/app/kvleak_crypto.go"))
	crypto, err := os.ReadFile(filepath.Join(src, "pkg/app/crypto.go"))
	require.NoError(t, err)
	copied, err := os.ReadFile(filepath.Join(c.Out, "pkg/app/crypto.go"))
	require.NoError(t, err)
	assert.Equal(t, string(crypto), string(copied))
}

// The helpers the edit server-half adds must stay verbatim copies of
// resource.go's.
func TestClientHelpersAreVerbatim(t *testing.T) {
	resource, err := os.ReadFile(filepath.Join(realSrc(t), "pkg/app/resource.go"))
	require.NoError(t, err)
	clientWasm, err := addedFile("pkg/app/client_wasm.go")
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
	c := forkCopy(t)
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
	version := goModVersion(t)
	for _, rel := range editedFiles() {
		t.Run(rel, func(t *testing.T) {
			tampered := copyDir(t, src)
			name := filepath.Join(tampered, rel)
			data, err := os.ReadFile(name)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(name, append(data, "\n// upgraded\n"...), 0o644))
			c := forkCopy(t) // a good run first: the refusal must leave it alone
			before := tree(t, c.Out)

			c.Src = tampered
			err = Run(c)
			require.Error(t, err)
			assert.Contains(t, err.Error(), rel+" in "+tampered+" differs from go-app "+version+"'s")
			assert.Contains(t, err.Error(), upgradeDoc)
			assert.NotContains(t, err.Error(), "\n")
			assert.Equal(t, before, tree(t, c.Out))
		})
	}
	t.Run("untampered copy passes", func(t *testing.T) {
		c := forkCopy(t)
		c.Src = copyDir(t, src)
		require.NoError(t, Run(c))
	})
}

// A release without a row in hashes is refused with what to do; so is a
// go.mod that does not require go-app from its module.
func TestRefusesOtherGoApp(t *testing.T) {
	tests := []struct{ name, gomod, wantErr string }{
		{"newer version", "module m\n\ngo 1.26\n\nrequire " + ModulePath + " v10.1.12\n",
			"requires " + ModulePath + " v10.1.12, which internal/goappfork's edits were not checked against (known: v10.1.11): see " + upgradeDoc},
		{"older version", "module m\n\ngo 1.26\n\nrequire " + ModulePath + " v10.0.0\n",
			"requires " + ModulePath + " v10.0.0, which"},
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

// The row -hashes prints for go.mod's release is its row in hashes.
func TestHashRow(t *testing.T) {
	row, err := HashRow(filepath.Join(repoRoot(t), "go.mod"))
	require.NoError(t, err)
	version := goModVersion(t)
	assert.True(t, strings.HasPrefix(row, "\t\""+version+"\": {\n"), row)
	for rel, sum := range hashes[version] {
		assert.Contains(t, row, "\t\t\""+rel+"\": \""+sum+"\", // as in "+version, rel)
	}
	assert.Equal(t, " // changed: check the edits of this file", sameAs(scriptsSource, "0"))
}

func TestRefusesToReplaceOtherDirs(t *testing.T) {
	c := forkCopy(t)
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
		`invalid -without "sw-warning": the copy's edits are server-half, uuid,`: func(c *Config) { c.Without = []string{"uuid", swWarning.Name} },
	}
	for want, change := range bad {
		c := good
		change(&c)
		err := c.Validate()
		require.Error(t, err, want)
		assert.Contains(t, err.Error(), want)
	}
}

// A replacement that no longer matches exactly once is refused rather
// than skipped, naming the file and the edit.
func TestApplyIsExact(t *testing.T) {
	_, _, err := edit("pkg/app/route.go", []byte("package app\n"), Edits)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `pkg/app/route.go (edit regexp-routes): "import (" occurs 0 times, not once: see `+upgradeDoc)
	twice := "id = uuid.NewString()\n\t\"github.com/google/uuid\"\n\t\"github.com/google/uuid\"\n"
	_, _, err = edit("pkg/app/context.go", []byte(twice), Edits)
	assert.ErrorContains(t, err, "occurs 2 times")
}
