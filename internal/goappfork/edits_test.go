package goappfork

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each edit says why it is made and what it buys, does something, and
// names tests that exist somewhere in the repository.
func TestEveryEditIsAccountedFor(t *testing.T) {
	tests := repoTests(t)
	names := map[string]bool{}
	for _, e := range Edits {
		assert.NotEmpty(t, e.Name)
		assert.False(t, names[e.Name], "two edits named %s", e.Name)
		names[e.Name] = true
		assert.NotEmpty(t, e.Reason, e.Name)
		assert.NotEmpty(t, e.Buys, e.Name)
		assert.NotEmpty(t, e.Tests, e.Name)
		for _, test := range e.Tests {
			assert.True(t, tests[test], "edit %s: no test %s in the repository", e.Name, test)
		}
		copyEdit := len(e.replace)+len(e.notWasm)+len(e.omit)+len(e.add) > 0
		assert.True(t, copyEdit != (len(e.scripts) > 0), "edit %s changes either the copy or a script", e.Name)
		for script := range e.scripts {
			assert.Contains(t, []string{AppJS, WorkerJS}, script, e.Name)
		}
	}
}

// repoTests are the names of the test functions in the repository's test
// files, testdata/copy's included.
func repoTests(t *testing.T) map[string]bool {
	t.Helper()
	tests := map[string]bool{}
	require.NoError(t, filepath.WalkDir(repoRoot(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "build" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		for _, name := range testFuncs(string(src)) {
			tests[name] = true
		}
		return err
	}))
	require.Contains(t, tests, "TestEveryEditIsAccountedFor", "the walk reads test files")
	return tests
}

// Every file in add/ is added by exactly one edit, and every file an edit
// adds is there.
func TestEveryAddedFileBelongsToOneEdit(t *testing.T) {
	owners := map[string][]string{}
	for _, e := range Edits {
		for _, rel := range e.add {
			owners[rel] = append(owners[rel], e.Name)
			_, err := addedFile(rel)
			assert.NoError(t, err, "edit %s", e.Name)
		}
	}
	require.NoError(t, fs.WalkDir(added, "add", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, "add/"), ".txt")
		assert.Len(t, owners[rel], 1, "%s: added by %v", p, owners[rel])
		return nil
	}))
}

// Each release's row holds exactly the files the edits touch, so an edit
// of a new file needs its hash for every release.
func TestHashesCoverTheEditedFiles(t *testing.T) {
	require.NotEmpty(t, hashes)
	for version, row := range hashes {
		assert.Equal(t, editedFiles(), slices.Sorted(maps.Keys(row)), version)
	}
	assert.Contains(t, editedFiles(), scriptsSource)
	assert.Contains(t, hashes, goModVersion(t), "go.mod's go-app has its row")
}

// docs/upgrading-go-app.md walks through every edit.
func TestTheUpgradeDocNamesEveryEdit(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot(t), upgradeDoc))
	require.NoError(t, err)
	for _, e := range Edits {
		assert.Contains(t, string(doc), "`"+e.Name+"`", upgradeDoc)
	}
}
