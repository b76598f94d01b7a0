package dom

import (
	"encoding/binary"
	"unsafe"

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

// mapColours is a palette as one pixel for each page-map byte, on each
// square of the stale pages' checkerboard ([0] where x+y is even): RGBA
// packed as ImageData holds it (words), so that a pixel costs one look-up
// and one store, not a switch per page.
type mapColours [2][256]uint32

func (pal mapPalette) colours() *mapColours {
	pack := func(c rgb) uint32 { return binary.NativeEndian.Uint32([]byte{c[0], c[1], c[2], 0xff}) }
	var t mapColours
	for b := range 256 {
		tenant := pack(pal.tenants[(b>>engine.MapOwnerShift+7)%8])
		c := [2]uint32{pack(pal.free), pack(pal.free)}
		switch byte(b) & engine.MapStateMask {
		case engine.MapLeaked:
			c = [2]uint32{pack(pal.leak), pack(pal.leak)}
		case engine.MapAllocated:
			c = [2]uint32{tenant, tenant}
		case engine.MapStale:
			c[0] = tenant
		}
		t[0][b], t[1][b] = c[0], c[1]
	}
	return &t
}

// mapPixels turns a page map into RGBA pixels, one pass, into dst (grown as
// needed). Not by colour alone: an allocated page is its tenant's colour,
// a stale one the same colour on a checkerboard with the free colour, a
// leaked one the leak colour (and ringed, when drawn: drawMap). Pixels
// past the pool's last page are the free colour.
func mapPixels(dst []byte, v model.PoolMapView, pal mapPalette) []byte {
	n := v.Width * v.Height
	if cap(dst) < 4*n {
		dst = make([]byte, 4*n)
	}
	dst = dst[:4*n]
	px := words(dst)
	tab := pal.colours()
	for y := range v.Height {
		lo := y * v.Width
		row := px[lo : lo+v.Width]
		on, off := &tab[y&1], &tab[(y+1)&1] // the squares where x is even, odd
		if v.PerPixel > 1 {
			for x := range v.Width {
				sq := on
				if x&1 == 1 {
					sq = off
				}
				row[x] = sq[foldPixel(v.Map, (lo+x)*v.PerPixel, v.PerPixel)]
			}
			continue
		}
		pages := v.Map[min(lo, len(v.Map)):min(lo+v.Width, len(v.Map))]
		x := 0
		for ; x+1 < len(pages); x += 2 { // two pixels a turn: one of each square
			row[x], row[x+1] = on[pages[x]], off[pages[x+1]]
		}
		if x < len(pages) {
			row[x] = on[pages[x]]
			x++
		}
		for ; x < v.Width; x++ { // past the pool's last page
			row[x] = on[engine.MapFree]
		}
	}
	return dst
}

// foldPixel is the most telling of the pages a folded pixel stands for.
func foldPixel(m []byte, first, per int) byte {
	b := byte(engine.MapFree)
	for p := first; p < min(first+per, len(m)); p++ {
		if mapRank[m[p]&engine.MapStateMask] >= mapRank[b&engine.MapStateMask] {
			b = m[p]
		}
	}
	return b
}

// repaint brings px, the pixels of the map's version drawn in the palette
// was, up to v in pal: when v follows that version in the same palette,
// only the pixels of the pages v says changed (a step or a Send touches a
// slot, not the pool); else every pixel. dirty is the byte range of px it
// rewrote, for copying only that much to the canvas's ImageData.
func repaint(px []byte, drawn int, was mapPalette, v model.PoolMapView, pal mapPalette) (out []byte, dirty [2]int) {
	if v.AllChanged || drawn != v.Version-1 || was != pal || v.PerPixel != 1 || len(px) != 4*v.Width*v.Height {
		px = mapPixels(px, v, pal)
		return px, [2]int{0, len(px)}
	}
	tab, words := pal.colours(), words(px)
	dirty = [2]int{len(px), 0}
	v.Changed.Each(func(id int) bool {
		if id < len(v.Map) {
			x, y := id%v.Width, id/v.Width
			words[id] = tab[(x+y)&1][v.Map[id]]
			dirty = [2]int{min(dirty[0], 4*id), max(dirty[1], 4*id+4)}
		}
		return true
	})
	if dirty[0] > dirty[1] {
		dirty = [2]int{}
	}
	return px, dirty
}

// words is RGBA pixels as one word each (in the machine's byte order, as
// colours packs them), in place: a pixel is one store, not a call, as
// binary.LittleEndian.PutUint32 is in the wasm, built without inlining —
// a call a pixel was most of a full drawing's time (docs/performance.md).
// len(b) is a multiple of 4.
func words(b []byte) []uint32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), len(b)/4)
}
