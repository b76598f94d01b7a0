package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The page map says of every page what Page says, one byte each.
func TestPageMapAgreesWithPage(t *testing.T) {
	for _, slug := range []string{"demo", "abort-one-half", "late-write", "scrub"} {
		t.Run(slug, func(t *testing.T) {
			p, ok := PresetBySlug(slug)
			require.True(t, ok)
			e, err := Replay(p.Config, p.Ops)
			require.NoError(t, err)
			for step := 0; step <= e.Log().Len(); step++ {
				snap, err := e.SnapshotAt(step)
				require.NoError(t, err)
				m := snap.PageMap(nil)
				require.Len(t, m, snap.Pages())
				for id, b := range m {
					info, err := snap.Page(id)
					require.NoError(t, err)
					state := map[byte]PageState{MapFree: PageFree, MapAllocated: PageAllocated, MapStale: PageStale, MapLeaked: PageLeaked}[b&MapStateMask]
					require.Equal(t, info.State, state, "step %d page %d", step, id)
					owner := ""
					if i := b >> MapOwnerShift; i > 0 {
						owner = e.Tenants()[i-1]
					}
					require.Equal(t, info.Owner, owner, "step %d page %d", step, id)
				}
			}
		})
	}
}

func TestPageMapOfTheDemoMarksSevenLeakedPagesOfA(t *testing.T) {
	p, _ := PresetBySlug("demo")
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	buf := make([]byte, 0, 64)
	m := e.Snapshot().PageMap(buf)
	assert.Equal(t, []byte{
		MapStale | 2<<MapOwnerShift, // B's placeholder page, freed
		MapLeaked | 1<<MapOwnerShift, MapLeaked | 1<<MapOwnerShift, MapLeaked | 1<<MapOwnerShift, MapLeaked | 1<<MapOwnerShift,
		MapLeaked | 1<<MapOwnerShift, MapLeaked | 1<<MapOwnerShift, MapLeaked | 1<<MapOwnerShift,
		MapFree, MapFree, // decode's ninth and tenth pages, never used
	}, m)
	assert.Equal(t, []string{"A", "B"}, e.Tenants())
	assert.Equal(t, cap(buf), cap(m), "dst is reused when large enough")
}

// BenchmarkPageMap is the engine's share of drawing the pool map at
// GLM-5.3's launch scale: one byte per page.
func BenchmarkPageMap(b *testing.B) {
	p, _ := PresetBySlug("glm-launch")
	e, err := Replay(p.Config, p.Ops)
	require.NoError(b, err)
	snap := e.Snapshot()
	buf := snap.PageMap(nil)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		buf = snap.PageMap(buf)
	}
}

// A map brought up to date from any earlier step, in a random walk over
// the steps, and from a live snapshot a Send has moved on from, is the map
// drawn afresh; what it did not rewrite had not changed.
func TestPageMapSinceIsThePageMap(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, slug := range []string{"demo", "abort-one-half", "late-write", "scrub", "gateway-block"} {
		e := replayPreset(t, slug)
		prev, err := e.SnapshotAt(0)
		require.NoError(t, err)
		m := prev.PageMap(nil)
		sawPartial := false
		for range 60 {
			s, err := e.SnapshotAt(r.IntN(e.Log().Len() + 1))
			require.NoError(t, err)
			before := slices.Clone(m)
			var changed Pages
			var all bool
			m, changed, all = s.PageMapSince(m, prev)
			require.Equal(t, s.PageMap(nil), m, "%s: step %d from step %d", slug, s.Step(), prev.Step())
			if !all {
				sawPartial = true
				for id := range m {
					if !changed.Contains(id) {
						require.Equal(t, before[id], m[id], "%s: page %d is not in changed", slug, id)
					}
				}
			}
			prev = s
		}
		assert.True(t, sawPartial, "%s: some steps were brought up to date, not redrawn", slug)
	}
	big := newEngine(t, Config{ContextTokens: 64, PoolTokens: 32, DecodePoolTokens: 512, PageTokens: 1, Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1})
	for i := range 40 {
		send(t, big, Request{Tenant: fmt.Sprintf("t%d", i%5), PromptTokens: 8, Content: "x"})
	}
	for _, r := range []Request{{Tenant: "B", PromptTokens: 40}, {Tenant: "C", PromptTokens: 3, Content: "c"}} {
		live := big.Snapshot()
		m := live.PageMap(nil)
		send(t, big, r)
		now := big.Snapshot()
		m, _, all := now.PageMapSince(m, live)
		assert.False(t, all, "a Send touches a slot, not a quarter of the pool")
		require.Equal(t, now.PageMap(nil), m, "from the live snapshot before the Send of %+v", r)
	}
	other := replayPreset(t, "demo").Snapshot()
	_, _, all := other.PageMapSince(other.PageMap(nil), replayPreset(t, "demo").Snapshot())
	assert.True(t, all, "another engine's snapshot is no base")
}
