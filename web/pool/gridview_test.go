package pool

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

func TestGridMove(t *testing.T) {
	for _, c := range []struct {
		key            string
		i, n, cols, to int
	}{
		{"ArrowRight", 0, 8, 4, 1}, {"ArrowLeft", 0, 8, 4, 0}, {"ArrowDown", 1, 8, 4, 5},
		{"ArrowDown", 5, 8, 4, 5}, {"ArrowUp", 5, 8, 4, 1}, {"Home", 5, 8, 4, 0},
		{"End", 2, 8, 4, 7}, {"a", 2, 8, 4, 2}, {"ArrowDown", 0, 8, 0, 1},
	} {
		assert.Equal(t, c.to, gridMove(c.key, c.i, c.n, c.cols), "%+v", c)
	}
}

// While the timeline is dragged a map's spans keep their words; the map
// itself follows every move, and the words catch up when the drag ends.
func TestAMapsSpansKeepTheirWordsDuringADrag(t *testing.T) {
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	regions := func(step int) model.MapRegions {
		require.NoError(t, s.ScrubTo(step))
		return s.PoolMap().Regions
	}
	before, after := regions(s.Steps()/2), regions(s.Steps()-1)
	require.NotEqual(t, before, after, "the two steps' spans differ")
	c := newPoolMap().Map(model.PoolMapView{Regions: before})
	assert.Equal(t, before, c.shownRegions())
	c.Map(model.PoolMapView{Regions: after}).Scrubbing(true)
	assert.Equal(t, before, c.shownRegions(), "dragged: the words shown before")
	c.Scrubbing(false)
	assert.Equal(t, after, c.shownRegions(), "the drag ended: the step's words")
	assert.Equal(t, after, newPoolMap().Map(model.PoolMapView{Regions: after}).Scrubbing(true).shownRegions(),
		"a map first shown in a drag names its own spans")
}
