package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refCell summarises first..last from Page(), one page at a time.
func refCell(t *testing.T, s *Snapshot, tenants []string, first, last int) Cell {
	t.Helper()
	c := Cell{First: first, Last: last}
	votes := map[string]int{}
	for id := first; id <= last; id++ {
		p, err := s.Page(id)
		require.NoError(t, err)
		switch {
		case p.Holder != 0:
			c.Allocated++
		case p.Writer != 0:
			c.Stale++
		default:
			c.Free++
		}
		if p.State == PageLeaked {
			c.Leaked++
		}
		if p.Owner != "" {
			votes[p.Owner]++
		}
	}
	best := 0
	for _, tn := range tenants { // ties go to the tenant seen first
		if votes[tn] > best {
			best, c.Owner = votes[tn], tn
		}
	}
	switch {
	case c.Leaked > 0:
		c.State = PageLeaked
	case c.Allocated > 0:
		c.State = PageAllocated
	case c.Stale > 0:
		c.State = PageStale
	default:
		c.State = PageFree
	}
	return c
}

func TestCellsCoverTheRange(t *testing.T) {
	e := newEngine(t, Config{ContextTokens: 256, PoolTokens: 97, DecodePoolTokens: 256, PageTokens: 1,
		Mode: Vulnerable, Allocator: LIFO, Cancel: CancelOneHalf, KVBytesPerToken: 1})
	for _, r := range []Request{
		{Tenant: "A", PromptTokens: 40, Content: "a"},
		{Tenant: "B", PromptTokens: 13, CancelAt: StagePrefillForward},
		{Tenant: "C", PromptTokens: 7},
		{Tenant: "B", PromptTokens: 200, MaxNewTokens: 2}, // placeholder: leaks
	} {
		send(t, e, r)
	}
	require.True(t, e.Responses()[3].Leaked())
	snaps := []*Snapshot{e.Snapshot()}
	for _, step := range []int{0, 5, e.Log().Len() / 2} {
		s, err := e.SnapshotAt(step)
		require.NoError(t, err)
		snaps = append(snaps, s)
	}
	n := 97
	ranges := [][2]int{{0, n - 1}, {0, 0}, {n - 1, n - 1}, {3, 50}, {1, 8}, {8, 15}, {40, 96}, {13, 14}}
	counts := []int{1, 2, 3, 5, 7, 8, 9, 10, 31, 48, 96, 97, 98, 1000, 1 << 30}
	for si, s := range snaps {
		for _, rg := range ranges {
			for _, k := range counts {
				first, last := rg[0], rg[1]
				size := last - first + 1
				t.Run(fmt.Sprintf("snap%d/%d-%d/n=%d", si, first, last, k), func(t *testing.T) {
					cells, err := s.Cells(first, last, k)
					require.NoError(t, err)
					require.Len(t, cells, min(k, size), "never more cells than pages")
					next := first
					sum := 0
					for _, c := range cells {
						require.Equal(t, next, c.First, "no gap, no overlap")
						require.GreaterOrEqual(t, c.Last, c.First, "no empty cell")
						width := c.Last - c.First + 1
						assert.LessOrEqual(t, width, size/len(cells)+1, "nearly equal sizes")
						assert.GreaterOrEqual(t, width, size/len(cells), "nearly equal sizes")
						assert.Equal(t, width, c.Free+c.Allocated+c.Stale, "counts sum to the cell's size")
						assert.LessOrEqual(t, c.Leaked, c.Allocated+c.Stale)
						assert.Equal(t, refCell(t, s, e.Tenants(), c.First, c.Last), c)
						sum += width
						next = c.Last + 1
					}
					assert.Equal(t, last+1, next, "the cells end at last")
					assert.Equal(t, size, sum)
				})
			}
		}
	}
}

func TestCellsDemo(t *testing.T) {
	e := replayPreset(t, "demo")
	s := e.Snapshot()
	cells, err := s.Cells(0, 7, 1)
	require.NoError(t, err)
	assert.Equal(t, []Cell{{First: 0, Last: 7, Stale: 8, Leaked: 7, Owner: "A", State: PageLeaked}}, cells)

	cells, err = s.Cells(0, 7, 8)
	require.NoError(t, err)
	assert.Equal(t, Cell{First: 0, Last: 0, Stale: 1, Owner: "B", State: PageStale}, cells[0])
	for _, c := range cells[1:] {
		assert.Equal(t, Cell{First: c.First, Last: c.First, Stale: 1, Leaked: 1, Owner: "A", State: PageLeaked}, c)
	}
	cells, err = s.Cells(0, 7, 2)
	require.NoError(t, err)
	assert.Equal(t, 3, cells[0].Leaked)
	assert.Equal(t, 4, cells[1].Leaked)

	// Page 8, decode's one page more than prefill's pool, was never used.
	cells, err = s.Cells(8, 8, 1)
	require.NoError(t, err)
	assert.Equal(t, Cell{First: 8, Last: 8, Free: 1, State: PageFree}, cells[0])

	// Precedence: leaked over allocated (B's read: B holds all 8, reads 7
	// of A's).
	events := e.Log().Copy()
	read, _ := e.SnapshotAt(e.Responses()[1].ReadStep)
	cells, _ = read.Cells(0, 7, 1)
	assert.Equal(t, Cell{First: 0, Last: 7, Allocated: 8, Leaked: 7, Owner: "A", State: PageLeaked}, cells[0])
	// Allocated over stale and free: A's prealloc, A holds all 8, nothing
	// written yet.
	prealloc, _ := e.SnapshotAt(stepOf(t, events, 1, StageDecodePrealloc, ServerDecode))
	cells, _ = prealloc.Cells(0, 7, 1)
	assert.Equal(t, Cell{First: 0, Last: 7, Allocated: 8, Owner: "A", State: PageAllocated}, cells[0])
	s0, _ := e.SnapshotAt(0)
	cells, _ = s0.Cells(0, 7, 1)
	assert.Equal(t, Cell{First: 0, Last: 7, Free: 8, State: PageFree}, cells[0])
	freed, _ := e.SnapshotAt(stepOf(t, events, 1, StageRelease, ServerDecode))
	cells, _ = freed.Cells(0, 7, 1)
	assert.Equal(t, Cell{First: 0, Last: 7, Stale: 8, Owner: "A", State: PageStale}, cells[0])
}

func TestCellsAllocatedOverStale(t *testing.T) {
	e := replayPreset(t, "abort-one-half") // 0–7 lingering (unwritten), 8–15 stale B
	cells, err := e.Snapshot().Cells(0, 15, 1)
	require.NoError(t, err)
	assert.Equal(t, Cell{First: 0, Last: 15, Allocated: 8, Stale: 8, Owner: "A", State: PageAllocated}, cells[0])
	cells, _ = e.Snapshot().Cells(4, 11, 1)
	assert.Equal(t, "A", cells[0].Owner, "a tie goes to the tenant seen first")
	cells, _ = e.Snapshot().Cells(5, 11, 1)
	assert.Equal(t, "B", cells[0].Owner)
}

func TestCellsBadRanges(t *testing.T) {
	s := replayPreset(t, "demo").Snapshot()
	cases := []struct {
		first, last, n int
		msg            string
	}{
		{-1, 7, 1, "page range -1–7: must lie within 0–9"},
		{0, 10, 1, "page range 0–10: must lie within 0–9"},
		{5, 4, 1, "page range 5–4: must lie within 0–9"},
		{0, 7, 0, "cell count 0: must be at least 1"},
		{0, 7, -3, "cell count -3: must be at least 1"},
	}
	for _, tc := range cases {
		cells, err := s.Cells(tc.first, tc.last, tc.n)
		assert.Nil(t, cells)
		assert.EqualError(t, err, tc.msg)
	}
}
