package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The spans of every preset's pools, over the whole pool and random
// ranges of it, tile the range asked for, each of one holder and one
// writer as Page reports them, neighbours different.
func TestSpansTileTheRangeAsPageSeesIt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, p := range Presets() {
		e := replayPreset(t, p.Slug)
		for _, server := range Servers {
			checkSpans(t, r, e.SnapshotOf(server))
		}
	}
}

func checkSpans(t *testing.T, r *rand.Rand, snap *Snapshot) {
	for i := range 20 {
		first, last := 0, snap.Pages()-1
		if i > 0 {
			first = r.IntN(snap.Pages())
			last = first + r.IntN(snap.Pages()-first)
		}
		next := first
		var prev *Span
		snap.Spans(first, last, func(sp Span) bool {
			require.Equal(t, next, sp.First, "spans follow each other")
			require.LessOrEqual(t, sp.First, sp.Last)
			for _, id := range []int{sp.First, (sp.First + sp.Last) / 2, sp.Last} {
				p, err := snap.Page(id)
				require.NoError(t, err)
				require.Equal(t, [2]int{p.Holder, p.Writer}, [2]int{sp.Holder, sp.Writer}, "page %d", id)
			}
			if prev != nil {
				require.NotEqual(t, [2]int{prev.Holder, prev.Writer}, [2]int{sp.Holder, sp.Writer}, "neighbours differ")
			}
			prev, next = &sp, sp.Last+1
			return true
		})
		require.Equal(t, last+1, next, "the spans end at the range's last page")
	}
	calls := 0
	snap.Spans(0, snap.Pages()-1, func(Span) bool { calls++; return false })
	require.Equal(t, 1, calls, "false stops the walk")
}
