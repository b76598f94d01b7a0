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

// While the timeline is dragged the grid's cells keep their names, and
// only their names: everything else is the new step's.
func TestHeldNamesKeepOnlyTheNames(t *testing.T) {
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	grid := func(step int) []model.CellView {
		require.NoError(t, s.ScrubTo(step))
		g, err := s.Grid(model.MaxGridCells)
		require.NoError(t, err)
		return g.Cells
	}
	shown, now := grid(s.Steps()/2), grid(s.Steps()-1)
	var buf []model.CellView
	held := heldNames(shown, now, &buf)
	require.Len(t, held, len(now))
	assert.Same(t, &buf[0], &held[0], "the cells are copied into the buffer handed")
	renamed := 0
	for i := range held {
		want := now[i]
		want.Name = shown[i].Name
		assert.Equal(t, want, held[i], "cell %d", i)
		if now[i].Name != shown[i].Name {
			renamed++
			assert.NotEqual(t, now[i].Name, held[i].Name, "cell %d: the model's cells are left as they are", i)
		}
	}
	assert.Greater(t, renamed, 100, "a move across B's reservation renames hundreds of cells")
	same := grid(s.Steps() - 1)
	assert.Same(t, &same[0], &heldNames(same, same, &buf)[0], "nothing renamed: the cells themselves")
	again := heldNames(shown, now, &buf)
	assert.Same(t, &buf[0], &again[0], "the buffer is reused, not grown anew")
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
