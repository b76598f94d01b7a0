package dom

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// mapPixelsByCase is mapPixels as first written, a switch per pixel and a
// fold per pixel: the oracle for the look-up tables.
func mapPixelsByCase(v model.PoolMapView, l model.MapLayout, pal mapPalette) []byte {
	n := l.Width * l.Height
	dst := make([]byte, 4*n)
	rank := map[byte]int{model.MapFree: 0, model.MapStale: 1, model.MapAllocated: 2, model.MapLeaked: 3}
	for px := range n {
		b := byte(model.MapFree)
		for p := px * l.PerPixel; p < min((px+1)*l.PerPixel, len(v.Map)); p++ {
			if rank[v.Map[p]&model.MapStateMask] >= rank[b&model.MapStateMask] {
				b = v.Map[p]
			}
		}
		c := pal.free
		owner := int(b>>model.MapOwnerShift) - 1
		if owner >= 0 && owner < len(v.Colours) {
			owner = v.Colours[owner]
		}
		tenant := pal.tenants[(owner+8)%8]
		switch b & model.MapStateMask {
		case model.MapLeaked:
			c = pal.leak
		case model.MapAllocated:
			c = tenant
		case model.MapStale:
			if x, y := px%l.Width, px/l.Width; (x+y)%2 == 0 {
				c = tenant
			}
		}
		dst[4*px], dst[4*px+1], dst[4*px+2], dst[4*px+3] = c[0], c[1], c[2], 255
	}
	return dst
}

// Random maps, widths, foldings, tenants' colours and both palettes: the
// tables paint what the switch painted, pixel for pixel, past the pool's
// end too.
func TestMapPixelsMatchTheSwitch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var dst []byte
	for i := range 300 {
		pages := 1 + r.IntN(3000)
		m := make([]byte, pages)
		for p := range m {
			m[p] = byte(r.IntN(256))
		}
		if i%2 == 0 { // runs of equal bytes, as the page table's runs draw them, some rows long
			for p := 0; p < pages; {
				n := 1 + r.IntN([2]int{60, 1500}[i%4/2])
				b := byte(r.IntN(256))
				for ; n > 0 && p < pages; n, p = n-1, p+1 {
					m[p] = b
				}
			}
		}
		w := 1 + r.IntN(70)
		per := 1
		if i%3 != 1 {
			per = 1 + r.IntN(20)
		}
		l := model.MapLayout{Pages: pages, Width: w, Height: (pages + per*w - 1) / (per * w), PerPixel: per}
		v := model.PoolMapView{Pages: pages, Map: m, Colours: r.Perm(1 + r.IntN(12))}
		pal := lightMap
		if i%2 == 1 {
			pal = darkMap
		}
		dst = mapPixels(dst, v, l, pal)
		require.Equal(t, mapPixelsByCase(v, l, pal), dst, "case %d: %d pages, %d wide, %d per pixel", i, pages, w, per)
	}
}

// Decode's pool at the launch scale, 1,048,576 pages, in a box of 480 px
// (7 pages to a pixel): the launch preset's map, and one of random bytes
// (no two neighbouring pages alike, the worst case).
func BenchmarkMapPixels(b *testing.B) {
	s := model.NewSession()
	require.NoError(b, s.LoadPreset("glm-launch"))
	launch := s.PoolMap()
	r := rand.New(rand.NewPCG(3, 4))
	random := model.PoolMapView{Pages: launch.Pages, Map: make([]byte, launch.Pages)}
	for p := range random.Map {
		random.Map[p] = byte(r.IntN(8))<<model.MapOwnerShift | byte(r.IntN(4))
	}
	for _, v := range []struct {
		name string
		view model.PoolMapView
	}{{"glm-launch", launch}, {"random", random}} {
		b.Run(v.name, func(b *testing.B) {
			l := model.LayOutMap(v.view.Pages, 480)
			dst := mapPixels(nil, v.view, l, lightMap)
			b.ReportAllocs()
			for b.Loop() {
				dst = mapPixels(dst, v.view, l, lightMap)
			}
		})
	}
}

// repaint after a change to some pages paints what mapPixels paints, one
// page a pixel or several; it paints every pixel when it cannot build on
// the last drawing: a version skipped, another palette, layout or
// tenants' colours, a whole new map.
func TestRepaintPaintsWhatMapPixelsPaints(t *testing.T) {
	for _, per := range []int{1, 3} {
		r := rand.New(rand.NewPCG(7, uint64(per)))
		m := make([]byte, 5000)
		for p := range m {
			m[p] = byte(r.IntN(256))
		}
		l := model.MapLayout{Pages: len(m), Width: 64, Height: (len(m) + 64*per - 1) / (64 * per), PerPixel: per}
		v := model.PoolMapView{Version: 1, Pages: len(m), Map: m, AllChanged: true, Colours: []int{2, 0, 1}}
		px, dirty := repaint(nil, drawing{}, v, l, lightMap)
		require.Equal(t, mapPixels(nil, v, l, lightMap), px)
		require.Equal(t, [2]int{0, len(px)}, dirty, "a whole new map: every byte")
		drawn := func(v model.PoolMapView) drawing { return drawing{v.Version, l, lightMap, v.Colours} }
		for i := range 20 {
			next := v
			next.Version, next.AllChanged, next.Map = v.Version+1, false, slices.Clone(v.Map)
			next.Changed = nil
			for range 1 + r.IntN(30) {
				first := r.IntN(len(m))
				run := engine.Run{First: first, Count: 1 + r.IntN(min(40, len(m)-first))}
				next.Changed = append(next.Changed, run)
				for p := run.First; p < run.First+run.Count; p++ {
					next.Map[p] = byte(r.IntN(256))
				}
			}
			before := slices.Clone(px)
			px, dirty = repaint(px, drawn(v), next, l, lightMap)
			require.Equal(t, mapPixels(nil, next, l, lightMap), px, "%d per pixel, change %d", per, i)
			require.Equal(t, before[:dirty[0]], px[:dirty[0]], "change %d: nothing rewritten before the dirty range", i)
			require.Equal(t, before[dirty[1]:], px[dirty[1]:], "change %d: nor after it", i)
			lo, hi := 4*len(m), 0
			for _, r := range next.Changed {
				lo, hi = min(lo, 4*(r.First/per)), max(hi, 4*((r.First+r.Count-1)/per+1))
			}
			require.Equal(t, [2]int{lo, hi}, dirty, "change %d: the changed pages' pixels' bytes", i)
			v = next
		}
		// What repaint cannot build on: it paints every pixel.
		stale := slices.Clone(px)
		for i := range stale {
			stale[i] ^= 0xff
		}
		skipped := v
		skipped.Version += 2
		assert.Equal(t, mapPixels(nil, skipped, l, lightMap), first(repaint(slices.Clone(stale), drawn(v), skipped, l, lightMap)), "a version skipped")
		next := v
		next.Version++
		assert.Equal(t, mapPixels(nil, next, l, darkMap), first(repaint(slices.Clone(stale), drawn(v), next, l, darkMap)), "another palette")
		wide := model.MapLayout{Pages: l.Pages, Width: 65, Height: (len(m) + 65*per - 1) / (65 * per), PerPixel: per}
		assert.Equal(t, mapPixels(nil, next, wide, lightMap), first(repaint(slices.Clone(stale), drawn(v), next, wide, lightMap)), "another layout")
		recoloured := next
		recoloured.Colours = []int{0, 1, 2}
		assert.Equal(t, mapPixels(nil, recoloured, l, lightMap), first(repaint(slices.Clone(stale), drawn(v), recoloured, l, lightMap)), "other colours")
		next.AllChanged = true
		assert.Equal(t, mapPixels(nil, next, l, lightMap), first(repaint(slices.Clone(stale), drawn(v), next, l, lightMap)), "a whole new map")
	}
}

func first[A, B any](a A, _ B) A { return a }
