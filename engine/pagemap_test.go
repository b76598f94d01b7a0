package engine

import (
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
			for step := 0; step <= len(e.Events()); step++ {
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
