package model

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestBuildGridDemo(t *testing.T) {
	s := NewSession()
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, 7, GridMarks{}, MaxGridCells)
	require.NoError(t, err)
	require.Len(t, g.Cells, 8)
	assert.Equal(t, 1, g.PerCell)
	leaked := 0
	for _, c := range g.Cells[1:] {
		assert.Equal(t, engine.PageLeaked, c.State)
		assert.Equal(t, "A", c.Owner)
		assert.Equal(t, "A!", c.Mark, "a leak is marked in text, not only colour")
		assert.Contains(t, c.Label, "LEAKED")
		assert.Contains(t, c.Label, "written by r1 (tenant A)")
		assert.Contains(t, c.Label, "read by r2 (tenant B)")
		leaked++
	}
	assert.Equal(t, 7, leaked)
	assert.Equal(t, "0", g.Cells[0].Page)
	assert.Equal(t, engine.PageStale, g.Cells[0].State)
	assert.Equal(t, 1, g.Cells[0].Tenant, "tenant B's colour")
}

func TestBuildGridAggregatesRealScale(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, s.cfg.PagesOf(engine.ServerDecode)-1, GridMarks{Touched: engine.Pages{{First: 0, Count: 8}}}, MaxGridCells)
	require.NoError(t, err)
	assert.Len(t, g.Cells, MaxGridCells)
	assert.Equal(t, "0-1329", g.Cells[0].Page)
	assert.Equal(t, engine.PageLeaked, g.Cells[0].State, "the range holding pages 1–7 is leaked")
	assert.Equal(t, 7, g.Cells[0].Leaked)
	assert.True(t, g.Cells[0].Touched)
	assert.False(t, g.Cells[1].Touched)
	assert.Contains(t, g.Summary, "681,280")
	assert.Contains(t, g.Cells[0].Label, "7 LEAKED")

	zoomed, err := BuildGrid(s.Snapshot(), s.tenants, 0, 15, GridMarks{}, MaxGridCells)
	require.NoError(t, err)
	assert.True(t, zoomed.Zoomed)
	assert.Len(t, zoomed.Cells, 16)

	_, err = BuildGrid(s.Snapshot(), s.tenants, 10, 5, GridMarks{}, MaxGridCells)
	assert.Error(t, err)
}

// At the launch scale the session's grid reads the page map, and from
// step to step only its changed cells; it is the grid BuildGrid makes from
// the page table, at every step of a random walk with Sends between.
func TestSessionGridFromTheMapIsTheGrid(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.True(t, s.PoolMap().Show)
	r := rand.New(rand.NewPCG(3, 1))
	updated := 0
	for i := range 40 {
		if i%10 == 9 {
			require.NoError(t, s.Send())
		}
		require.NoError(t, s.SelectStep(r.IntN(s.Steps()+1)))
		before := s.memo.gridMapVersion
		got, err := s.Grid(MaxGridCells)
		require.NoError(t, err)
		if !s.PoolMap().AllChanged && before == s.PoolMap().Version-1 {
			updated++
		}
		want, err := BuildGrid(s.Snapshot(), s.tenants, 0, s.cfg.PagesOf(engine.ServerDecode)-1, s.gridMarks(), MaxGridCells)
		require.NoError(t, err)
		require.Equal(t, want, got, "walk %d, step %d", i, s.Step())
	}
	assert.Greater(t, updated, 10, "most steps update the grid rather than rebuild it")
}

// An update that changes no cell keeps the previous grid's cells (go-app
// then finds the inputs equal at once); one that changes some copies them
// and leaves the previous grid as it was.
func TestAGridUpdateCopiesItsCellsOnlyOnAChange(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	grid := func() GridView {
		g, err := s.Grid(MaxGridCells)
		require.NoError(t, err)
		return g
	}
	require.NoError(t, s.Send())
	kept := 0
	for range 6 {
		prev := grid()
		require.NoError(t, s.Send()) // the same request again: at this scale, often no cell changes
		if got := grid(); slices.Equal(got.Cells, prev.Cells) {
			assert.Same(t, unsafe.SliceData(prev.Cells), unsafe.SliceData(got.Cells), "no cell changed: the cells are kept")
			kept++
		}
	}
	assert.Positive(t, kept)

	prev := grid()
	was := slices.Clone(prev.Cells)
	require.NoError(t, s.SelectStep(1)) // an almost empty pool
	got := grid()
	require.False(t, slices.Equal(got.Cells, prev.Cells))
	assert.NotSame(t, unsafe.SliceData(prev.Cells), unsafe.SliceData(got.Cells))
	assert.Equal(t, was, prev.Cells, "the previous grid is left as it was")
}

func TestMetricRowsCoverEveryCounter(t *testing.T) {
	s := NewSession()
	rows := metricRows(s.eng.Metrics())
	byKey := map[string]string{}
	for _, r := range rows {
		byKey[r.Key] = r.Value
	}
	assert.Equal(t, "7", byKey["leaked-pages"])
	assert.Equal(t, "1", byKey["leaked-responses"])
	assert.Equal(t, "8", byKey["pages-stale"])
	assert.Len(t, byKey, len(rows), "keys are unique")

	// Every counter of engine.Metrics has a row, but the two that are sums
	// of others (requests, pages in all): a new counter needs one.
	counters := reflect.TypeOf(engine.Metrics{})
	shown := 0
	for i := range counters.NumField() {
		switch counters.Field(i).Name {
		case "Requests", "PagesTotal":
		case "DeferredRelease":
			shown += len(engine.Outcomes)
		default:
			shown++
		}
	}
	assert.Len(t, rows, shown)
}

func TestSegmentText(t *testing.T) {
	assert.Equal(t, "x", segmentText("x", 1))
	assert.Equal(t, "x  ×1,000", segmentText("x", 1000))
}

// The pool note says what the policy implies, from the pool as it is.
func TestPoolNoteSaysWhoseKVNotWhether(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	note := s.PoolNote()
	assert.Contains(t, note, "Allocator sorted.")
	assert.Contains(t, note, "Of 681,280 pages, 7 hold no KV (never written, or scrubbed) and 681,273 hold some request's KV")
	assert.Contains(t, note, "the policy's choice")
	assert.Contains(t, note, "decides whose stale KV a reservation gets, not whether")

	require.NoError(t, s.SelectStep(1))
	assert.Contains(t, s.PoolNote(), "Of 681,280 pages, 681,280 hold no KV", "before the first request the pool is cold")
	assert.Contains(t, s.PoolNote(), "a cold pool")

	require.NoError(t, s.LoadPreset("demo"))
	assert.Contains(t, s.PoolNote(), "Of 8 pages, 0 hold no KV")
	assert.Contains(t, s.PoolNote(), "a warm pool")
}

// At launch scale the map holds every page; the leaked ones are called out.
func TestPoolMapAtLaunchScale(t *testing.T) {
	s := NewSession()
	assert.False(t, s.PoolMap().Show, "the demo's 8 pages need no map")
	require.NoError(t, s.LoadPreset("glm-launch"))
	v := s.PoolMap()
	require.True(t, v.Show)
	assert.Equal(t, 681_280, v.Pages)
	assert.Equal(t, [3]int{1024, 666, 1}, [3]int{v.Width, v.Height, v.PerPixel})
	require.Len(t, v.Map, 681_280)
	leaked := 0
	for _, b := range v.Map {
		if b&engine.MapStateMask == engine.MapLeaked {
			leaked++
		}
	}
	assert.Equal(t, 7, leaked)
	assert.Equal(t, 7, v.Leaked.Len())

	require.NoError(t, s.SelectStep(1))
	w := s.PoolMap()
	assert.NotEqual(t, v.Version, w.Version, "a new step is a new drawing")
	assert.Equal(t, w, s.PoolMap(), "the same step is the same view")
	assert.Equal(t, 1023, w.MapPage(1023, 0))
	assert.Equal(t, 1024, w.MapPage(0, 1))
	assert.Equal(t, 681_279, w.MapPage(5000, 5000), "clamped to the pool")
}
