package preview

import (
	"strings"
	"testing"

	"kvleak/engine"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func replay(t *testing.T, slug string) (*engine.Engine, engine.Response) {
	t.Helper()
	p, ok := engine.PresetBySlug(slug)
	require.True(t, ok, slug)
	e, err := engine.Replay(p.Config, p.Ops)
	require.NoError(t, err)
	rs := e.Responses()
	return e, rs[len(rs)-1]
}

// The scene is the engine's: each run's own verdict, pages and leaks.
func TestSceneIsTheEngines(t *testing.T) {
	demo, err := Preset("demo")
	require.NoError(t, err)
	for _, slug := range []string{"demo", "late-write", "scrub"} {
		e, r := replay(t, slug)
		s, err := FromEngine(e)
		require.NoError(t, err, slug)
		if slug == "demo" {
			assert.Equal(t, s, demo)
		}
		assert.Equal(t, r.Headline(), s.Verdict, slug)
		assert.Equal(t, r.Tenant, s.Reader, slug)
		assert.Equal(t, r.Status, s.Status, slug)
		assert.Equal(t, r.LeakedPages.Len(), s.Leaked, slug)
		require.Len(t, s.Tiles, r.ReadPages.Len(), slug)
		for _, tile := range s.Tiles {
			p, err := e.Snapshot().Page(tile.Page)
			require.NoError(t, err)
			assert.True(t, r.ReadPages.Contains(tile.Page), "%s: page %d", slug, tile.Page)
			assert.Equal(t, r.LeakedPages.Contains(tile.Page), tile.Leaked, "%s: page %d", slug, tile.Page)
			assert.Equal(t, p.Owner, tile.Owner, "%s: page %d", slug, tile.Page)
		}
		assert.True(t, strings.HasSuffix(s.Alt(), r.Headline()), "the alt text ends with the verdict: %s", s.Alt())
	}
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", demo.Verdict, "the article's demo")
}
