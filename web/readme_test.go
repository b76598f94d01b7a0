package web

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The README documents one permalink per preset; keep them true.
func TestReadmeLinksMatchThePresets(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	for _, p := range engine.Presets() {
		link := "`?" + encodeLink(linkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops}) + "`"
		assert.Contains(t, string(readme), link, p.Slug)
	}
}
