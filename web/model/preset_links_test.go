package model

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
)

// TestEveryPresetsFullLinkOpensAsThePreset opens each preset's full
// permalink as the page's OnNav does (DecodeLink, then ApplyLink): the
// session shows what choosing the preset shows, at its latest step and
// its grid, and the address bar keeps the link as it is. Its short link
// at the middle step shows what choosing it and scrubbing there shows. The browser opens
// the full link of one preset of each kind (e2e
// TestEveryPresetOpensAsPinned's walkedPresets).
func TestEveryPresetsFullLinkOpensAsThePreset(t *testing.T) {
	for _, p := range engine.Presets() {
		t.Run(p.Slug, func(t *testing.T) {
			chosen := NewSession()
			require.NoError(t, chosen.LoadPreset(p.Slug))
			q := permalink.EncodeLink(permalink.LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops})

			l, err := DecodeLink(q)
			require.NoError(t, err)
			opened := NewSession()
			require.NoError(t, opened.ApplyLink(l))
			assert.Equal(t, chosen.Response(), opened.Response())
			assert.Equal(t, chosen.Steps(), opened.Steps())
			want, err := chosen.Grid(MaxGridCells)
			require.NoError(t, err)
			got, err := opened.Grid(MaxGridCells)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, q, opened.AddressQuery(), "opening a link leaves it as it is")
			assert.Empty(t, opened.Notice(), "a link of this version needs no notice")

			// The short link at the run's middle step: the preset chosen,
			// then scrubbed there.
			mid := chosen.Steps() / 2
			require.NoError(t, chosen.ScrubTo(mid))
			short := "v=4&preset=" + p.Slug + "&step=" + strconv.Itoa(mid)
			l, err = DecodeLink(short)
			require.NoError(t, err)
			atMid := NewSession()
			require.NoError(t, atMid.ApplyLink(l))
			assert.Equal(t, mid, atMid.Step())
			assert.Equal(t, chosen.Response(), atMid.Response(), "%s", short)
			want, err = chosen.Grid(MaxGridCells)
			require.NoError(t, err)
			got, err = atMid.Grid(MaxGridCells)
			require.NoError(t, err)
			assert.Equal(t, want, got, "%s", short)
			assert.Empty(t, atMid.Notice(), "%s", short)
		})
	}
}
