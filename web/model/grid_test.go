package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
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

// Prefill's placeholder lands in position 0 of decode's page 0; positions
// 1–15 keep A's KV. The page is marked mixed, in text, and its label says
// whose KV each run of positions holds.
func TestDecodesFirstPageIsMixedAfterB(t *testing.T) {
	s := NewSession()
	page0 := func() CellView {
		t.Helper()
		g, err := s.Grid(MaxGridCells)
		require.NoError(t, err)
		require.Len(t, g.Cells, s.cfg.PagesOf(engine.ServerDecode), "decode's pages")
		return g.Cells[0]
	}
	c := page0()
	assert.True(t, c.Mixed)
	assert.Equal(t, "B", c.Owner, "the last writer")
	assert.Equal(t, "B+", c.Mark)
	assert.Equal(t, "positions 0: r2 (tenant B); 1–15: r1 (tenant A)", c.Positions)
	assert.Equal(t, "1", c.ID, "the page shown by SGLang's id: page 0 is reserved")
	assert.Equal(t, "Page 1: free but stale (keeps its old KV); written by r2 (tenant B): tenant-B:<placeholder-token>; read by r2 (tenant B); positions 0: r2 (tenant B); 1–15: r1 (tenant A)", c.Label)
	assert.True(t, c.Window)
	assert.True(t, c.Wrote, "prefill wrote its one token here")

	g, err := s.Grid(MaxGridCells)
	require.NoError(t, err)
	last := g.Cells[7]
	assert.False(t, last.Mixed, "A's last page: one writer, then positions never written")
	assert.Equal(t, "positions 0–7: r1 (tenant A); 8–15: nothing", last.Positions)
	assert.Equal(t, "A!", last.Mark)
	for _, c := range g.Cells[1:7] {
		assert.False(t, c.Mixed)
		assert.Empty(t, c.Positions, "a page one request filled needs no positions")
	}

	require.NoError(t, s.SelectStep(stepOf(t, s.eng, 2, engine.StageDecodePrealloc))) // nothing written yet
	c = page0()
	assert.False(t, c.Mixed)
	assert.Equal(t, "A", c.Owner)
	assert.True(t, c.Touched, "reserved by the selected event")
	require.NoError(t, s.SelectStep(stepOf(t, s.eng, 2, engine.StagePrefillTransfer))) // send_kv_chunk
	c = page0()
	assert.True(t, c.Mixed)
	assert.True(t, c.Touched)
}

// The grid shows decode's pool: at launch scale 1,048,576 pages, each
// cell a range of 2,048 of them summarised by the engine.
func TestBuildGridAggregatesRealScale(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, s.cfg.PagesOf(engine.ServerDecode)-1, GridMarks{Touched: engine.Pages{{First: 0, Count: 8}}}, MaxGridCells)
	require.NoError(t, err)
	assert.Len(t, g.Cells, MaxGridCells)
	assert.Equal(t, 2048, g.PerCell)
	assert.Equal(t, "0-2047", g.Cells[0].Page)
	assert.Equal(t, engine.PageLeaked, g.Cells[0].State, "the range holding A's pages 1–2,047 is leaked")
	assert.Equal(t, 2047, g.Cells[0].Leaked, "page 0 holds B's own placeholder")
	assert.Equal(t, "A", g.Cells[0].Owner)
	assert.True(t, g.Cells[0].Touched)
	assert.False(t, g.Cells[1].Touched)
	assert.Contains(t, g.Summary, "Pages 1–1,048,576 of 1,048,576, about 2,048 pages per cell", "SGLang's page ids")
	assert.Equal(t, "1–2,048", g.Cells[0].ID)
	assert.Equal(t, "Pages 1–2,048: 0 free, 0 allocated, 2,048 stale, 2047 LEAKED into the last response; mostly tenant A", g.Cells[0].Label)
	assert.Equal(t, "D", g.Cells[2].Owner, "D's batch job from page 4,096 on")
	// D's KV ends at page 681,272: past it B's reservation read nothing.
	assert.Equal(t, "Pages 679,937–681,984: 711 free, 0 allocated, 1,337 stale, 1337 LEAKED into the last response; mostly tenant D", g.Cells[332].Label)
	assert.Equal(t, engine.PageFree, g.Cells[333].State)
	leaked := 0
	for _, c := range g.Cells {
		leaked += c.Leaked
	}
	assert.Equal(t, 681_272, leaked, "4,095 pages of A's and 677,177 of D's")

	zoomed, err := BuildGrid(s.Snapshot(), s.tenants, 0, 15, GridMarks{}, MaxGridCells)
	require.NoError(t, err)
	assert.True(t, zoomed.Zoomed)
	assert.Len(t, zoomed.Cells, 16)

	_, err = BuildGrid(s.Snapshot(), s.tenants, 10, 5, GridMarks{}, MaxGridCells)
	assert.Error(t, err)
}

// At the launch scale the session's grid rebuilds, from step to step, only
// its changed cells; it is the grid BuildGrid makes afresh, at every step
// of a random walk (steps, jumps, Sends).
func TestSessionGridUpdatedIsTheGrid(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.True(t, s.PoolMap().Show)
	r := rand.New(rand.NewPCG(3, 1))
	updated := 0
	for i := range 40 {
		switch {
		case i%10 == 9:
			require.NoError(t, s.Send())
		case i%4 == 0: // a jump: across B's 900,000 pages, often a redraw
			require.NoError(t, s.SelectStep(r.IntN(s.Steps()+1)))
		default: // a step: most events touch few pages or none
			s.StepBy([]int{-1, 1}[r.IntN(2)])
		}
		if m := &s.memo; m.gridKey.eng == s.eng && m.gridErr == nil && m.grid.PerCell >= updateFrom {
			updated++ // the session updates the grid it has
		}
		got, err := s.Grid(MaxGridCells)
		require.NoError(t, err)
		require.Equal(t, freshGrid(t, s), got, "walk %d, step %d", i, s.Step())
	}
	assert.Greater(t, updated, 10, "most steps update the grid rather than rebuild it")
}

// launchGrid is a session at the launch scale, and its grid at the step.
func launchGrid(t *testing.T) (*Session, func() GridView) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	return s, func() GridView {
		g, err := s.Grid(MaxGridCells)
		require.NoError(t, err)
		return g
	}
}

// freshGrid is the session's whole pool as BuildGrid makes it afresh.
func freshGrid(t *testing.T, s *Session) GridView {
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, s.cfg.PagesOf(engine.ServerDecode)-1, s.gridMarks(), MaxGridCells)
	require.NoError(t, err)
	return g
}

// While the timeline is dragged the grid's cells keep their labels and
// names, and only those: everything else is the new step's. When the drag
// ends the cells are named as BuildGrid names them.
func TestADragHoldsTheCellsNames(t *testing.T) {
	s, grid := launchGrid(t)
	fresh := func() GridView { return freshGrid(t, s) }
	require.NoError(t, s.ScrubTo(s.Steps()/2))
	shown := grid()
	require.False(t, shown.Held, "no drag: the marks are drawn")
	s.HoldNames(true)
	held, renamed := shown, 0
	for _, step := range []int{s.Steps() - 1, 1, s.Steps() - 1} {
		require.NoError(t, s.ScrubTo(step))
		now, want := grid(), fresh()
		require.Len(t, now.Cells, len(want.Cells))
		for i := range want.Cells {
			w := want.Cells[i]
			w.Label, w.Name = shown.Cells[i].Label, shown.Cells[i].Name
			require.Equal(t, w, now.Cells[i], "step %d, cell %d: the step's, with the name shown before", step, i)
			if want.Cells[i].Name != shown.Cells[i].Name {
				renamed++
			}
		}
		assert.True(t, now.Held, "step %d: the grid holds its marks", step)
		held = now
	}
	assert.Greater(t, renamed, 100, "a move across B's reservation renames hundreds of cells")
	s.HoldNames(false)
	named := grid()
	assert.False(t, named.Held, "the drag ended: the marks are drawn")
	assert.Equal(t, fresh(), named, "the drag ended: the cells are named")
	assert.NotEqual(t, held.Cells, named.Cells)
	assert.Same(t, unsafe.SliceData(named.Cells), unsafe.SliceData(grid().Cells), "named once")
}

// An update that changes no cell keeps the previous grid's cells (go-app
// then finds the inputs equal at once); one that changes some copies them
// and leaves the previous grid as it was.
func TestAGridUpdateCopiesItsCellsOnlyOnAChange(t *testing.T) {
	s, grid := launchGrid(t)
	// A prompt the API refuses touches no page. (B's 900,000 tokens touch
	// more pages than an update is worth: the map is drawn afresh; and any
	// prompt that reaches the pools turns free pages stale, a change in
	// its cells' counts.)
	require.NoError(t, s.SetText(PromptTokens, "1100000"))
	require.NoError(t, s.Send())
	kept := 0
	for range 6 {
		prev := grid()
		require.NoError(t, s.Send()) // the same request again: no cell changes
		if got := grid(); slices.Equal(got.Cells, prev.Cells) {
			assert.Same(t, unsafe.SliceData(prev.Cells), unsafe.SliceData(got.Cells), "no cell changed: the cells are kept")
			kept++
		}
	}
	assert.Equal(t, 6, kept, "no Send touched a page")

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
	assert.Equal(t, "8", byKey["pages-stale"], "decode's eight pages, A's and B's")
	assert.Equal(t, strconv.Itoa(s.cfg.PagesOf(engine.ServerDecode)), byKey["pages-free"], "every page of decode's pool is free again")
	assert.Equal(t, "8", byKey["pages-staged"])
	assert.Equal(t, "8", byKey["prefill-pages-stale"], "prefill's pool keeps A's KV too")
	assert.Equal(t, "0", byKey["prefill-pages-allocated"])
	assert.Len(t, byKey, len(rows), "keys are unique")

	// Every counter of engine.Metrics has a row, each pool's counters too,
	// but the sums of others (requests, each pool's total) and prefill's
	// free and staged pages (its pool's own summary says them,
	// PrefillPool): a new counter needs one.
	notShown := map[string]bool{"Requests": true, "Prefill.Total": true, "Decode.Total": true, "Prefill.Free": true, "Prefill.Staged": true}
	counters := reflect.TypeOf(engine.Metrics{})
	pool := reflect.TypeOf(engine.PoolMetrics{})
	shown := 0
	for i := range counters.NumField() {
		f := counters.Field(i)
		switch {
		case f.Type == pool:
			for j := range pool.NumField() {
				if !notShown[f.Name+"."+pool.Field(j).Name] {
					shown++
				}
			}
		case f.Name == "DeferredRelease":
			shown += len(engine.Outcomes)
		case !notShown[f.Name]:
			shown++
		}
	}
	assert.Len(t, rows, shown)
}

func TestSegmentText(t *testing.T) {
	assert.Equal(t, "x", segmentText("x", 1))
	assert.Equal(t, "x  ×1,000", segmentText("x", 1000))
}

// The pool note says what the policy implies, from decode's pool as it is.
func TestPoolNoteSaysWhoseKVNotWhether(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	note := s.PoolNote()
	assert.Contains(t, note, "Allocator sorted.")
	assert.Contains(t, note, "Of 1,048,576 pages, 367,303 hold no KV (never written, or scrubbed) and 681,273 hold some request's KV", "A's 4,096 and D's 677,177")
	assert.Contains(t, note, "the policy's choice")
	assert.Contains(t, note, "decides whose stale KV a reservation gets, not whether")

	require.NoError(t, s.SelectStep(1))
	assert.Contains(t, s.PoolNote(), "Of 1,048,576 pages, 1,048,576 hold no KV", "before the first request the pool is cold")
	assert.Contains(t, s.PoolNote(), "a cold pool")

	heldWords := func(pages, held int) string {
		return fmt.Sprintf("Of %d pages, %d hold no KV (never written, or scrubbed) and %d hold some request's KV", pages, pages-held, held)
	}
	require.NoError(t, s.LoadPreset("demo"))
	assert.Contains(t, s.PoolNote(), heldWords(s.cfg.PagesOf(engine.ServerDecode), s.cfg.ReservedPages(engine.DemoPromptA)), "B's reservation reused A's pages; the rest were never reserved")
	require.NoError(t, s.LoadPreset("symmetric"))
	b := s.ops[1].Send.PromptTokens
	assert.Contains(t, s.PoolNote(), heldWords(s.cfg.PagesOf(engine.ServerDecode), s.cfg.ReservedPages(engine.DemoPromptA)+s.cfg.ReservedPages(b)), "B's placeholder in a page of its own")
	require.NoError(t, s.LoadPreset("late-write"))
	// A's and B's 8 pages each; C takes A's back: 4 of the 20 never written.
	assert.Contains(t, s.PoolNote(), heldWords(s.cfg.PagesOf(engine.ServerDecode), 2*s.cfg.ReservedPages(8)))
	assert.Contains(t, s.PoolNote(), "the policy's choice")

	// Two requests that write every page of a 16-page pool leave it warm.
	e, err := engine.New(engine.Config{ContextTokens: 32, PoolTokens: 16, DecodePoolTokens: 16, PageTokens: 1,
		Mode: engine.Vulnerable, Cancel: engine.CancelBoth, KVBytesPerToken: 1})
	require.NoError(t, err)
	for _, tenant := range []string{"A", "B"} {
		_, err := e.Send(engine.Request{Tenant: tenant, PromptTokens: 8, MaxNewTokens: 1})
		require.NoError(t, err)
	}
	assert.Contains(t, poolNote(engine.Sorted, e.Snapshot()), "Of 16 pages, 0 hold no KV")
	assert.Contains(t, poolNote(engine.Sorted, e.Snapshot()), "a warm pool")
}

// At launch scale the map holds every page of decode's pool; the leaked
// ones are called out.
func TestPoolMapAtLaunchScale(t *testing.T) {
	s := NewSession()
	assert.False(t, s.PoolMap().Show, "the demo's 9 pages need no map")
	require.NoError(t, s.LoadPreset("glm-launch"))
	v := s.PoolMap()
	require.True(t, v.Show)
	assert.Equal(t, 1_048_576, v.Pages)
	require.Len(t, v.Map, 1_048_576)
	leaked := 0
	for _, b := range v.Map {
		if b&engine.MapStateMask == engine.MapLeaked {
			leaked++
		}
	}
	assert.Equal(t, 681_272, leaked)
	assert.Equal(t, 681_272, v.Leaked.Len())

	require.NoError(t, s.SelectStep(1))
	w := s.PoolMap()
	assert.NotEqual(t, v.Version, w.Version, "a new step is a new drawing")
	assert.Equal(t, w, s.PoolMap(), "the same step is the same view")
}

// stepOf is the step of request's first event at stage in e's log.
func stepOf(t *testing.T, e *engine.Engine, request int, stage engine.Stage) int {
	t.Helper()
	for i := range e.Log().Len() {
		if ev := e.Log().At(i); ev.Request == request && ev.Stage == stage {
			return ev.Step
		}
	}
	t.Fatalf("r%d never reaches %s", request, stage)
	return 0
}

// A cell's mark starts with its owner's first letter, whole even where
// the letter takes several bytes; a name that does not start with one
// shows U+FFFD, as a rune conversion would.
func TestMarkForTakesTheOwnersFirstLetter(t *testing.T) {
	for _, c := range []struct {
		v    CellView
		want string
	}{
		{CellView{Owner: "A", State: engine.PageLeaked}, "A!"},
		{CellView{Owner: "Ülla", State: engine.PageStale}, "Ü"},
		{CellView{Owner: "日本", State: engine.PageStale, Mixed: true}, "日+"},
		{CellView{Owner: "\xffx", State: engine.PageStale}, "\uFFFD"},
		{CellView{Owner: "", State: engine.PageFree}, "·"},
		{CellView{Owner: "", State: engine.PageStale}, ""},
	} {
		assert.Equal(t, c.want, markFor(c.v), "owner %q", c.v.Owner)
	}
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = markFor(CellView{Owner: "Ülla", State: engine.PageStale}) }),
		"a letter alone is a slice of the name")
}

// The bench's launch-scale move (cmd/bench/js/act.js) goes between the
// log's middle step, the release of a reservation, and the step before the
// latest: hundreds of cells change their outline and nothing else, and the
// kept grid is still the one built afresh, names and all.
func TestAMoveThatOnlyMovesTheOutlineKeepsTheCellsViews(t *testing.T) {
	s, grid := launchGrid(t)
	for range 20 {
		require.NoError(t, s.Send())
	}
	require.NoError(t, s.ScrubTo(s.Steps()/2))
	before := grid()
	require.NoError(t, s.ScrubTo(s.Steps()-1))
	after := grid()
	outlined := 0
	for i, c := range after.Cells {
		was := before.Cells[i]
		if was.Touched != c.Touched {
			was.Touched = c.Touched
			if was == c {
				outlined++
			}
		}
	}
	assert.Greater(t, outlined, 100, "cells whose outline alone moved")
	assert.Equal(t, freshGrid(t, s), after)
	require.NoError(t, s.ScrubTo(s.Steps()/2))
	assert.Equal(t, freshGrid(t, s), grid(), "and back")
}

// A drag outlines no page on either pool, as it draws no cell's letter:
// every cell's state is the step's, and the outline of the pages the
// selected event touched comes back when the drag ends.
func TestADragOutlinesNoPageUntilItEnds(t *testing.T) {
	s, grid := launchGrid(t)
	for range 20 {
		require.NoError(t, s.Send())
	}
	s.HoldNames(true)
	for _, step := range []int{s.Steps() / 2, s.Steps() - 1} {
		require.NoError(t, s.ScrubTo(step))
		want := freshGrid(t, s)
		outlined := 0
		for i, c := range grid().Cells {
			if want.Cells[i].Touched {
				outlined++
			}
			assert.False(t, c.Touched, "step %d, cell %d: outlined in a drag", step, i)
			assert.Equal(t, want.Cells[i].State, c.State, "step %d, cell %d: its state is the step's", step, i)
		}
		if step == s.Steps()/2 {
			assert.Greater(t, outlined, 100, "step %d: the step outlines hundreds of cells once the drag ends", step)
		}
	}
	s.HoldNames(false)
	assert.Equal(t, freshGrid(t, s), grid(), "the drag ended: outlined and named as built afresh")

	// The demo's prefill pool is a grid of its own.
	s = NewSession()
	prefillTouched := func() int {
		n := 0
		for _, c := range s.PrefillPool().Grid.Cells {
			if c.Touched {
				n++
			}
		}
		return n
	}
	evs := s.Engine().Log()
	step := 0
	for i := range evs.Len() {
		if ev := evs.At(i); ev.Pool == engine.ServerPrefill && ev.Pages.Len() > 0 {
			step = i + 1
			break
		}
	}
	require.NotZero(t, step, "the demo has a step that touches prefill's pages")
	require.NoError(t, s.ScrubTo(step))
	require.Positive(t, prefillTouched(), "a click outlines prefill's pages")
	s.HoldNames(true)
	require.NoError(t, s.ScrubTo(step))
	assert.Zero(t, prefillTouched(), "a drag does not")
	s.HoldNames(false)
	assert.Positive(t, prefillTouched(), "and when it ends, they are outlined again")
}
