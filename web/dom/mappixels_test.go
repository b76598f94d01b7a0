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

// mapPixelsByCase is mapPixels as first written, a switch per pixel: the
// oracle for the look-up tables.
func mapPixelsByCase(v model.PoolMapView, pal mapPalette) []byte {
	n := v.Width * v.Height
	dst := make([]byte, 4*n)
	for px := range n {
		first := px * v.PerPixel
		b := foldPixel(v.Map, first, v.PerPixel)
		c := pal.free
		owner := int(b >> engine.MapOwnerShift)
		switch b & engine.MapStateMask {
		case engine.MapLeaked:
			c = pal.leak
		case engine.MapAllocated:
			c = pal.tenants[(owner+7)%8]
		case engine.MapStale:
			if x, y := px%v.Width, px/v.Width; (x+y)%2 == 0 {
				c = pal.tenants[(owner+7)%8]
			}
		}
		dst[4*px], dst[4*px+1], dst[4*px+2], dst[4*px+3] = c[0], c[1], c[2], 255
	}
	return dst
}

// Random maps, widths, foldings and both palettes: the tables paint what
// the switch painted, pixel for pixel, past the pool's end too.
func TestMapPixelsMatchTheSwitch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var dst []byte
	for i := range 300 {
		pages := 1 + r.IntN(3000)
		m := make([]byte, pages)
		for p := range m {
			m[p] = byte(r.IntN(256))
		}
		w := 1 + r.IntN(70)
		per := 1
		if i%3 == 0 {
			per = 1 + r.IntN(9)
		}
		h := (pages + per*w - 1) / (per * w)
		v := model.PoolMapView{Width: w, Height: h, PerPixel: per, Pages: pages, Map: m}
		pal := lightMap
		if i%2 == 1 {
			pal = darkMap
		}
		dst = mapPixels(dst, v, pal)
		require.Equal(t, mapPixelsByCase(v, pal), dst, "case %d: %d pages, %d wide, %d per pixel", i, pages, w, per)
	}
}

// The launch scale: 681,280 pages, 1,024 × 666 px.
func BenchmarkMapPixels(b *testing.B) {
	pages := engine.GLMLaunchPoolTokens
	m := make([]byte, pages)
	r := rand.New(rand.NewPCG(3, 4))
	for p := range m {
		m[p] = byte(r.IntN(8))<<engine.MapOwnerShift | byte(r.IntN(4))
	}
	v := model.PoolMapView{Width: model.MapWidth, Height: (pages + model.MapWidth - 1) / model.MapWidth, PerPixel: 1, Pages: pages, Map: m}
	dst := mapPixels(nil, v, lightMap)
	b.ReportAllocs()
	for b.Loop() {
		dst = mapPixels(dst, v, lightMap)
	}
}

// repaint after a change to some pages paints what mapPixels paints; it
// paints every pixel when it cannot build on the last drawing: a version
// skipped, another palette, a whole new map.
func TestRepaintPaintsWhatMapPixelsPaints(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	m := make([]byte, 5000)
	for p := range m {
		m[p] = byte(r.IntN(256))
	}
	v := model.PoolMapView{Version: 1, Width: 64, Height: (len(m) + 63) / 64, PerPixel: 1, Pages: len(m), Map: m, AllChanged: true}
	px, dirty := repaint(nil, 0, lightMap, v, lightMap)
	require.Equal(t, mapPixels(nil, v, lightMap), px)
	require.Equal(t, [2]int{0, len(px)}, dirty, "a whole new map: every byte")
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
		px, dirty = repaint(px, v.Version, lightMap, next, lightMap)
		require.Equal(t, mapPixels(nil, next, lightMap), px, "change %d", i)
		require.Equal(t, before[:dirty[0]], px[:dirty[0]], "change %d: nothing rewritten before the dirty range", i)
		require.Equal(t, before[dirty[1]:], px[dirty[1]:], "change %d: nor after it", i)
		lo, hi := 4*len(m), 0
		for _, r := range next.Changed {
			lo, hi = min(lo, 4*r.First), max(hi, 4*(r.First+r.Count))
		}
		require.Equal(t, [2]int{lo, hi}, dirty, "change %d: the changed pages' bytes", i)
		v = next
	}
	// What repaint cannot build on: it paints every pixel.
	stale := slices.Clone(px)
	for i := range stale {
		stale[i] ^= 0xff
	}
	skipped := v
	skipped.Version += 2
	assert.Equal(t, mapPixels(nil, skipped, lightMap), first(repaint(slices.Clone(stale), v.Version, lightMap, skipped, lightMap)), "a version skipped")
	next := v
	next.Version++
	assert.Equal(t, mapPixels(nil, next, darkMap), first(repaint(slices.Clone(stale), v.Version, lightMap, next, darkMap)), "another palette")
	next.AllChanged = true
	assert.Equal(t, mapPixels(nil, next, lightMap), first(repaint(slices.Clone(stale), v.Version, lightMap, next, lightMap)), "a whole new map")
}

func first[A, B any](a A, _ B) A { return a }
