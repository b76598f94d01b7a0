package web

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rooms (doc.go) import the model, web/dom and web/widget, never one
// another nor the page; web/widget imports no room, web/model no go-app,
// and web/dom not the engine.
func TestRoomsImportOneWay(t *testing.T) {
	rooms := []string{"run", "pool", "settings", "experiments", "share", "deploy", "tour", "replaypanel", "challenge", "widget", "model"}
	for _, room := range rooms {
		files, err := filepath.Glob(filepath.Join(room, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, room)
		for _, file := range files {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			require.NoError(t, err)
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if room == "model" {
					assert.NotContains(t, path, "go-app", "%s imports go-app", file)
				}
				rest, ok := strings.CutPrefix(path, "kvleak/web")
				if !ok || strings.HasSuffix(file, "_test.go") && room == "model" {
					continue
				}
				assert.Contains(t, []string{"/model", "/dom", "/widget"}, rest, "%s imports %s", file, path)
				assert.NotEqual(t, "/"+room, rest, "%s imports its own package", file)
			}
		}
	}
	// web/dom draws what the model gives it: engine ← model ← dom.
	files, err := filepath.Glob(filepath.Join("dom", "*.go"))
	require.NoError(t, err)
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, im := range f.Imports {
			if !strings.HasSuffix(file, "_test.go") {
				assert.NotEqual(t, `"kvleak/engine"`, im.Path.Value, "%s imports the engine", file)
			}
		}
	}
	// Nothing is left unlisted: a new room is added above.
	dirs, err := os.ReadDir(".")
	require.NoError(t, err)
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "dom" {
			assert.Contains(t, rooms, d.Name())
		}
	}
}
