package main

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command shares the page's rules, never its UI: nothing it links,
// however deep, is under web/ (the link codec is permalink's, the
// deployment's words deploycheck's, the replay's replay's). Its tests may
// compare it with the page; go list -deps ./cmd/kvleak is what this
// checks, without the go command.
func TestTheCommandImportsNoUI(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	seen := map[string]string{} // a package of this module → who imports it
	queue := []string{"kvleak/cmd/kvleak"}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		pkg, err := build.ImportDir(filepath.Join(root, strings.TrimPrefix(path, "kvleak")), 0)
		require.NoError(t, err, path)
		for _, im := range pkg.Imports {
			if _, ok := seen[im]; ok || !strings.HasPrefix(im, "kvleak/") {
				continue
			}
			seen[im] = path
			queue = append(queue, im)
		}
	}
	require.Contains(t, seen, "kvleak/permalink", "the walk follows the command's imports")
	for im, by := range seen {
		assert.False(t, strings.HasPrefix(im, "kvleak/web"), "%s imports %s", by, im)
	}
}
