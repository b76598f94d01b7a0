package web

import (
	"kvleak/engine"
	"kvleak/web/model"
)

// rgb is a colour of the pool map.
type rgb [3]byte

// mapPalette is the pool map's colours for one colour scheme: the same as
// the stylesheet's custom properties (--free, --leak, --t0…--t7, --text),
// which a test holds them to.
type mapPalette struct {
	free, leak, ring rgb
	tenants          [8]rgb
}

var (
	lightMap = mapPalette{
		free: rgb{0xee, 0xf0, 0xf3}, leak: rgb{0xb3, 0x14, 0x1f}, ring: rgb{0x1d, 0x1d, 0x1f},
		tenants: [8]rgb{{0xcf, 0xe0, 0xff}, {0xff, 0xe1, 0xb8}, {0xd6, 0xf0, 0xd2}, {0xf1, 0xd6, 0xf5},
			{0xd4, 0xf1, 0xf4}, {0xf6, 0xf0, 0xc2}, {0xe6, 0xdc, 0xff}, {0xff, 0xd6, 0xd6}},
	}
	darkMap = mapPalette{
		free: rgb{0x27, 0x2a, 0x31}, leak: rgb{0xff, 0x80, 0x88}, ring: rgb{0xec, 0xed, 0xf0},
		tenants: [8]rgb{{0x22, 0x40, 0x6e}, {0x5c, 0x3a, 0x0e}, {0x1f, 0x4a, 0x22}, {0x4d, 0x26, 0x55},
			{0x17, 0x4a, 0x50}, {0x4a, 0x44, 0x10}, {0x3a, 0x2c, 0x66}, {0x5c, 0x22, 0x26}},
	}
)

// mapRank orders states for a folded pixel: it shows the most telling of
// its pages.
var mapRank = [4]int{engine.MapFree: 0, engine.MapStale: 1, engine.MapAllocated: 2, engine.MapLeaked: 3}

// mapPixels turns a page map into RGBA pixels, one pass, into dst (grown as
// needed). Not by colour alone: an allocated page is its tenant's colour,
// a stale one the same colour on a checkerboard with the free colour, a
// leaked one the leak colour (and ringed, when drawn: drawMap).
func mapPixels(dst []byte, v model.PoolMapView, pal mapPalette) []byte {
	n := v.Width * v.Height
	if cap(dst) < 4*n {
		dst = make([]byte, 4*n)
	}
	dst = dst[:4*n]
	for px := range n {
		first := px * v.PerPixel
		b := byte(engine.MapFree)
		for p := first; p < min(first+v.PerPixel, len(v.Map)); p++ {
			if mapRank[v.Map[p]&engine.MapStateMask] >= mapRank[b&engine.MapStateMask] {
				b = v.Map[p]
			}
		}
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
		if first >= len(v.Map) {
			c = pal.free
		}
		dst[4*px], dst[4*px+1], dst[4*px+2], dst[4*px+3] = c[0], c[1], c[2], 255
	}
	return dst
}
