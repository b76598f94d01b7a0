package model

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// At demo scale prefill's 8 pages are tiles. A's forward pass builds its
// KV there; after the transfer prefill frees them, and they keep A's KV —
// stale, as on decode — but prefill reads no page it did not write, so
// nothing leaks from this pool.
func TestPrefillPoolAtDemoScale(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SelectStep(5)) // r1's decode.prealloc: prefill has built nothing yet
	v := s.PrefillPool()
	require.Empty(t, v.Err)
	assert.Equal(t, "8 pages: 0 held, 0 stale (freed, still holding KV), 8 free", v.Summary)
	assert.False(t, v.Map.Show, "8 pages need no map")
	require.True(t, v.Grid.Tiles)
	require.Len(t, v.Grid.Cells, 8)

	require.NoError(t, s.SelectStep(6)) // r1's prefill.forward
	v = s.PrefillPool()
	assert.Equal(t, "8 pages: 8 held, 0 stale (freed, still holding KV), 0 free", v.Summary)
	for _, c := range v.Grid.Cells {
		assert.Equal(t, engine.PageAllocated, c.State, c.Page)
		assert.True(t, c.Touched, "the forward pass wrote page %s", c.Page)
	}

	require.NoError(t, s.SelectStep(8)) // r1's release on prefill
	v = s.PrefillPool()
	assert.Equal(t, "8 pages: 0 held, 8 stale (freed, still holding KV), 0 free", v.Summary)
	for _, c := range v.Grid.Cells {
		assert.True(t, c.Touched, "freed by the selected event: page %s", c.Page)
	}

	require.NoError(t, s.SelectStep(12)) // after A: decode's release
	v = s.PrefillPool()
	assert.Equal(t, "8 pages: 0 held, 8 stale (freed, still holding KV), 0 free", v.Summary)
	for i, c := range v.Grid.Cells {
		assert.Equal(t, engine.PageStale, c.State, "page %d", i)
		assert.Equal(t, "A", c.Owner)
		assert.Equal(t, 0, c.Tenant, "tenant A's colour")
		assert.Equal(t, "A", c.Mark)
		assert.Equal(t, "r1 · A", c.Writer)
		assert.Equal(t, "tenant-A:PROJECT_Z…", c.Text)
		assert.False(t, c.Touched, "the selected event is on decode's pool")
		assert.False(t, c.Window, "the read window is decode's")
		assert.Contains(t, c.Label, "free but stale (keeps its old KV); written by r1 (tenant A): tenant-A:PROJECT_ZEPHYR_Q4_FORECAST")
	}
	assert.Equal(t, "positions 0–7: r1 (tenant A); 8–15: nothing", v.Grid.Cells[7].Positions, "A's 120 tokens end inside page 7")

	// After B, prefill's forward pass over its placeholder wrote position 0
	// of page 0; the rest of the page keeps A's KV. Still no leak here.
	require.NoError(t, s.SelectStep(0))
	v = s.PrefillPool()
	assert.Equal(t, "8 pages: 0 held, 8 stale (freed, still holding KV), 0 free", v.Summary)
	first := v.Grid.Cells[0]
	assert.True(t, first.Mixed)
	assert.Equal(t, "B+", first.Mark)
	assert.Equal(t, "positions 0: r2 (tenant B); 1–15: r1 (tenant A)", first.Positions)
	for _, c := range v.Grid.Cells {
		assert.NotEqual(t, engine.PageLeaked, c.State, "decode read the leak, not prefill: page %s", c.Page)
		assert.Zero(t, c.Leaked)
	}
	assert.Same(t, &v.Grid.Cells[0], &s.PrefillPool().Grid.Cells[0], "kept while the step is the same")
}

// At launch scale prefill's 681,280 pages are a map: A's and D's KV stay
// in every page but the 6 never written, and none of it is marked leaked.
func TestPrefillPoolAtGLMScale(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	v := s.PrefillPool()
	require.Empty(t, v.Err)
	assert.Equal(t, "681,280 pages: 0 held, 681,274 stale (freed, still holding KV), 6 free", v.Summary)
	require.True(t, v.Map.Show)
	assert.Empty(t, v.Grid.Cells, "a map, not a grid")
	assert.Equal(t, 681_280, v.Map.Pages)
	require.Len(t, v.Map.Map, 681_280)
	states := map[byte]int{}
	for _, b := range v.Map.Map {
		states[b&engine.MapStateMask]++
	}
	assert.Equal(t, map[byte]int{engine.MapStale: 681_274, engine.MapFree: 6}, states, "nothing leaked in prefill's pool")
	assert.Empty(t, v.Map.Leaked)
	require.Len(t, v.Map.Colours, len(s.Engine().Tenants()))
	for i, name := range s.Engine().Tenants() {
		assert.Equal(t, slices.Index(s.Tenants(), name), v.Map.Colours[i], "tenant %s in the grid's colour for it", name)
	}
	assert.NotEqual(t, s.Engine().Tenants(), s.Tenants(), "the engine meets the tenants in another order than the form lists them")

	require.NoError(t, s.SelectStep(1))
	v = s.PrefillPool()
	assert.Equal(t, "681,280 pages: 0 held, 0 stale (freed, still holding KV), 681,280 free", v.Summary)
}

// The prefill pool's view, kept between renders, is the one built afresh
// whatever changed: the run, the step, the tenants' names.
func TestKeptPrefillPoolFollowsTheTenants(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SelectStep(12))
	assert.Equal(t, s.prefillPool(), drawnWhole(s.PrefillPool()))
	require.NoError(t, s.SelectTenant("A"))
	require.NoError(t, rename(s, "Acme"))
	assert.Equal(t, s.prefillPool(), drawnWhole(s.PrefillPool()), "after a rename")
	g, err := s.Grid(MaxGridCells)
	require.NoError(t, err)
	assert.Equal(t, g.Cells[1].Tenant, s.PrefillPool().Grid.Cells[1].Tenant, "both pools colour A's pages alike")
}

// drawnWhole is v with its map's bookkeeping as a view built afresh has it:
// a kept map is drawn over the last one (Version, Changed), with the same
// bytes.
func drawnWhole(v PrefillPoolView) PrefillPoolView {
	if v.Map.Show {
		v.Map.Version, v.Map.Changed, v.Map.AllChanged = 1, nil, true
	}
	return v
}

// At launch scale a move of the scrubber redraws prefill's map over the
// last one, as decode's: the same bytes, no new map, the pages changed.
func TestPrefillsMapIsDrawnOverTheLastOne(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.NoError(t, s.Send())
	last := s.Steps()
	require.NoError(t, s.ScrubTo(last/2))
	was := s.PrefillPool()
	require.True(t, was.Map.Show)
	inPart := 0
	for _, step := range []int{last - 1, last / 2, 1, last} {
		require.NoError(t, s.ScrubTo(step))
		now := s.PrefillPool()
		if !now.Map.AllChanged {
			inPart++
		}
		assert.Equal(t, s.prefillPool(), drawnWhole(now), "step %d: the bytes and words of a fresh view", step)
		assert.Same(t, &was.Map.Map[0], &now.Map.Map[0], "step %d: drawn over the last map", step)
		assert.Equal(t, was.Map.Version+1, now.Map.Version, "step %d", step)
		was = now
	}
	assert.Positive(t, inPart, "a move between nearby steps rewrites its pages only")
}
