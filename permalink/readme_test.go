package permalink

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The README documents one permalink per preset; keep them true.
func TestReadmeLinksMatchThePresets(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	presets := engine.Presets()
	require.NotEmpty(t, presets)
	for _, p := range presets {
		link := "| `?" + EncodeLink(LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops}) + "`"
		assert.True(t, strings.Contains(string(readme), link), "README.md lacks the %s row: %s", p.Slug, link)
	}
	assert.Equal(t, len(presets), strings.Count(string(readme), "| `?v="), "one link per preset, and no stale ones")
}
