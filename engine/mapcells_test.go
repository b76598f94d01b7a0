package engine

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// CellsFromMap gives what Cells gives, for every preset at a spread of
// steps, random ranges and cell counts, and a pool written by all 64
// tenants (the last one's owner index wraps in the map's six bits).
func TestCellsFromMapMatchesCells(t *testing.T) {
	engines := map[string]*Engine{}
	for _, p := range Presets() {
		if p.Config.PagesOf(ServerDecode) <= 4096 {
			engines[p.Slug] = replayPreset(t, p.Slug)
		}
	}
	many := newEngine(t, Config{ContextTokens: 64, PoolTokens: 32, DecodePoolTokens: 512, PageTokens: 1, Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1})
	for i := range MaxTenants {
		send(t, many, Request{Tenant: fmt.Sprintf("t%02d", i), PromptTokens: 8, Content: "x"})
	}
	send(t, many, Request{Tenant: "t63", PromptTokens: 40}) // prefill rejects, decode admits: leaks stale pages
	engines["64 tenants"] = many
	require.NotEmpty(t, many.Responses()[len(many.Responses())-1].LeakedPages, "the 64-tenant pool leaks")

	r := rand.New(rand.NewPCG(5, 6))
	for _, name := range slices.Sorted(maps.Keys(engines)) { // one order: the same cases each run
		e := engines[name]
		steps := e.Log().Len()
		for _, step := range []int{0, steps / 3, steps / 2, steps - 1, steps} {
			s, err := e.SnapshotAt(max(0, step))
			require.NoError(t, err)
			m := s.PageMap(nil)
			pages := s.Pages()
			for range 8 {
				first := r.IntN(pages)
				last := first + r.IntN(pages-first)
				n := 1 + r.IntN(40)
				if r.IntN(3) == 0 {
					first, last = 0, pages-1
				}
				want, err := s.Cells(first, last, n)
				require.NoError(t, err)
				got, err := s.CellsFromMap(m, first, last, n)
				require.NoError(t, err)
				require.Equal(t, want, got, "%s at step %d, pages %d–%d in %d cells", name, step, first, last, n)
			}
		}
	}
}

func TestCellsFromMapRefusesAnotherMap(t *testing.T) {
	s := replayPreset(t, "demo").Snapshot()
	_, err := s.CellsFromMap(make([]byte, s.Pages()-1), 0, 1, 1)
	require.ErrorContains(t, err, "page map of 8 pages for a pool of 9")
	_, err = s.CellsFromMap(s.PageMap(nil), 3, 2, 1)
	require.Error(t, err)
	_, err = s.CellsFromMap(s.PageMap(nil), 0, 1, 0)
	require.Error(t, err)
}
