package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo at page size 16, position by position: prefill writes B's
// placeholder into position 0 of decode's page 0, whose positions 1–15
// keep A's stale KV; pages 1–6 are A's; page 7 holds A's last 8 positions
// and nothing past them. Decode attends over 125 positions: 1 its own, 119
// A's, 5 nobody's.
func TestDemoTokenPositions(t *testing.T) {
	e := replayPreset(t, "demo")
	b := e.Responses()[1]
	assert.Equal(t, []int{DemoPromptB, 1, DemoPromptB, 1, 119, 5}, counts(b))
	assert.Equal(t, pg(0, 1), b.MixedPages, "page 0: B's first position, A's others")
	assert.Equal(t, pg(1, 7), b.LeakedPages)
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7, Tokens: 119}}, b.Leaks)

	at, err := e.SnapshotAt(b.ReadStep)
	require.NoError(t, err)
	page := func(id int) PageInfo {
		p, err := at.Page(id)
		require.NoError(t, err)
		return p
	}
	assert.Equal(t, []PositionRun{{First: 0, Last: 0, Writer: 2, Tenant: "B"}, {First: 1, Last: 15, Writer: 1, Tenant: "A"}}, page(0).Positions)
	for id := 1; id < 7; id++ {
		assert.Nil(t, page(id).Positions, "page %d is A's in every position", id)
		assert.Equal(t, 1, page(id).Writer)
	}
	assert.Equal(t, []PositionRun{{First: 0, Last: 7, Writer: 1, Tenant: "A"}, {First: 8, Last: 15, Writer: 0, Tenant: ""}}, page(7).Positions,
		"A's 120 tokens end in the middle of page 7")

	// The read's words count positions, not pages.
	assert.Contains(t, textOf(eventsOf(e.Log().Copy(), 2), StageDecodeRunning),
		"1 position written by this request, 119 positions of tenant A's stale KV, never cleared, 5 positions zeroed or never written")
}

// ViewAt moves its table back and forth by undoing and redoing steps: a
// page's positions — partial after a write that ended inside it, whole
// again after one that filled it — are restored exactly, on both pools.
func TestViewAtRestoresPositions(t *testing.T) {
	e := replayPreset(t, "demo")
	// A third request, read in full by both servers, writes pages 0–2 of
	// decode's pool: page 0 becomes one writer's again, page 2 partial.
	send(t, e, Request{Tenant: "C", PromptTokens: 40, Content: "weekly report"})
	for _, server := range Servers {
		n := e.Config().PagesOf(server)
		want := make([][]PageInfo, e.Log().Len()+1)
		for step := range want {
			s, err := e.SnapshotAtOf(server, step)
			require.NoError(t, err)
			for id := range n {
				p, err := s.Page(id)
				require.NoError(t, err)
				want[step] = append(want[step], p)
			}
		}
		partial := 0
		for _, pages := range want {
			for _, p := range pages {
				if p.Positions != nil {
					partial++
				}
			}
		}
		require.Positive(t, partial, "%s: some step holds a page of two writers", server)
		r := rand.New(rand.NewPCG(3, uint64(len(server))))
		for range 6 * len(want) {
			step := r.IntN(len(want))
			s, err := e.ViewAtOf(server, step)
			require.NoError(t, err)
			for id := range n {
				p, _ := s.Page(id)
				require.Equal(t, want[step][id], p, "%s step %d page %d", server, step, id)
			}
		}
	}

	// Around B's transfer on decode's page 0: A's whole, then B's and A's,
	// back and forth.
	events := e.Log().Copy()
	transfer := stepOf(t, events, 2, StagePrefillTransfer, ServerDecode)
	refill := stepOf(t, events, 3, StagePrefillTransfer, ServerDecode)
	page0 := func(step int) []PositionRun {
		s, err := e.ViewAt(step)
		require.NoError(t, err)
		p, _ := s.Page(0)
		return p.Positions
	}
	mixed := []PositionRun{{First: 0, Last: 0, Writer: 2, Tenant: "B"}, {First: 1, Last: 15, Writer: 1, Tenant: "A"}}
	for range 2 {
		assert.Nil(t, page0(transfer-1), "A's in every position before B's transfer (undo)")
		assert.Equal(t, mixed, page0(transfer), "redo")
		assert.Equal(t, mixed, page0(refill-1))
		assert.Nil(t, page0(refill), "C's full write makes it one writer's again")
	}
}

// positions.overwrite: the first n positions become w's, the runs past
// them stay, a run that continues w's joins it.
func TestPositionsOverwrite(t *testing.T) {
	a := positions{{Writer: 1, End: 16}}
	assert.Equal(t, positions{{Writer: 2, End: 1}, {Writer: 1, End: 16}}, a.overwrite(2, 1))
	assert.Equal(t, positions{{Writer: 2, End: 16}}, a.overwrite(2, 16), "a full write leaves one run")
	assert.Equal(t, positions{{Writer: 1, End: 16}}, a.overwrite(1, 5), "the same writer: one run")
	mixed := positions{{Writer: 2, End: 1}, {Writer: 1, End: 8}, {Writer: 0, End: 16}}
	assert.Equal(t, positions{{Writer: 3, End: 8}, {Writer: 0, End: 16}}, mixed.overwrite(3, 8))
	assert.Equal(t, positions{{Writer: 3, End: 4}, {Writer: 1, End: 8}, {Writer: 0, End: 16}}, mixed.overwrite(3, 4))
	assert.Equal(t, positions{{Writer: 1, End: 8}, {Writer: 0, End: 16}}, mixed.overwrite(1, 3), "joins the run it continues")
}

// Prefill's pool holds A's KV after A — stale once its transfer is done —
// and never shows a leaked page: decode reads another tenant's pages, not
// prefill. B's placeholder lands in position 0 of prefill's page 0 too.
func TestPrefillPoolShowsStaleNeverLeaked(t *testing.T) {
	e := replayPreset(t, "demo")
	events := e.Log().Copy()
	afterA, err := e.SnapshotAtOf(ServerPrefill, stepOf(t, events, 1, StageRelease, ServerPrefill))
	require.NoError(t, err)
	cells, err := afterA.Cells(0, 7, 1)
	require.NoError(t, err)
	assert.Equal(t, Cell{First: 0, Last: 7, Stale: 8, Owner: "A", State: PageStale}, cells[0])
	p, _ := afterA.Page(3)
	assert.Equal(t, "tenant-A:"+DemoSecret, p.Text)

	for step := 0; step <= e.Log().Len(); step++ {
		s, err := e.ViewAtOf(ServerPrefill, step)
		require.NoError(t, err)
		for id := range s.Pages() {
			p, _ := s.Page(id)
			require.NotEqual(t, PageLeaked, p.State, "step %d page %d", step, id)
			require.Zero(t, p.Reader, "nobody reads prefill's pages")
		}
		for _, b := range s.PageMap(nil) {
			require.NotEqual(t, MapLeaked, b&MapStateMask, "step %d", step)
		}
	}
	now := e.SnapshotOf(ServerPrefill)
	assert.Equal(t, ServerPrefill, now.Server())
	p, _ = now.Page(0)
	assert.Equal(t, PageStale, p.State)
	assert.Equal(t, []PositionRun{{First: 0, Last: 0, Writer: 2, Tenant: "B"}, {First: 1, Last: 15, Writer: 1, Tenant: "A"}}, p.Positions)
	free, held, stale := now.Occupancy()
	assert.Equal(t, [3]int{0, 0, 8}, [3]int{free, held, stale})
	// Decode's pool, at the same step, shows the leak.
	leaked := 0
	for _, b := range e.Snapshot().PageMap(nil) {
		if b&MapStateMask == MapLeaked {
			leaked++
		}
	}
	assert.Equal(t, 7, leaked)
}

// MixedPages are the pages decode read whose first position is the
// reader's own and whose later positions hold another tenant's KV, in page
// order, the same on every replay. A page whose first position is another
// tenant's is a leaked page, not a mixed one, whatever its later
// positions hold.
func TestMixedPages(t *testing.T) {
	cfg := DemoConfig()
	cfg.DecodePoolTokens, cfg.Allocator = 256, FIFO // 16 pages, handed out in the order freed
	ops := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: 120, Content: DemoSecret}),       // pages 0–7
		SendOp(Request{Tenant: "A", PromptTokens: 120, Content: "quarterly plan"}), // pages 8–15
		SendOp(Request{Tenant: "B", PromptTokens: 125}),                            // its placeholder in page 0
		SendOp(Request{Tenant: "B", PromptTokens: 125}),                            // in page 8
		SendOp(Request{Tenant: "B", PromptTokens: 224}),                            // reads pages 0–13
	}
	for range 20 { // Go's map order differs from run to run
		e, err := Replay(cfg, ops)
		require.NoError(t, err)
		b := e.Responses()[4]
		require.Equal(t, pg(0, 14), b.ReadPages)
		require.Equal(t, Pages{{0, 1}, {8, 1}}, b.MixedPages, "B's earlier placeholders, A's KV past them")
	}

	// FIFO hands C a reservation whose first page is D's (index 8): index
	// 0, where B's placeholder sits before A's KV, is leaked (its first
	// position is B's), not mixed; index 8, C's own placeholder, is mixed —
	// and past it holds A's KV, not D's: the transfer copied the whole
	// prefill page C's placeholder was built in, which A had written.
	cfg = DemoConfig()
	cfg.Allocator = FIFO
	e := newEngine(t, cfg)
	send(t, e, Request{Tenant: "A", PromptTokens: 120, Content: DemoSecret})
	send(t, e, Request{Tenant: "D", PromptTokens: 16})
	send(t, e, Request{Tenant: "E", PromptTokens: 16}) // decode's tenth page
	send(t, e, Request{Tenant: "B", PromptTokens: DemoPromptB})
	c := send(t, e, Request{Tenant: "C", PromptTokens: DemoPromptB})
	assert.Equal(t, Pages{{8, 2}, {0, 6}}, c.ReadPages)
	assert.Equal(t, 7, c.LeakedPages.Len())
	assert.True(t, containsAll(c.LeakedPages, Pages{{9, 1}, {0, 6}}), "E's page and pages 0–5: %s", c.LeakedPages)
	assert.Equal(t, pg(8, 1), c.MixedPages)
	// A: 15 positions past B's placeholder, 4 pages and 13 positions, and
	// 15 past C's own placeholder; E: its page; B: its placeholder.
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 5, Tokens: 107}, {Tenant: "E", Pages: 1, Tokens: 16}, {Tenant: "B", Pages: 1, Tokens: 1}}, c.Leaks)
}
