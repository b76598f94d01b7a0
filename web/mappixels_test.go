package web

import (
	"math/rand/v2"
	"testing"

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
