package dom

import (
	"encoding/binary"
	"slices"
	"unsafe"

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
var mapRank = [4]byte{model.MapFree: 0, model.MapStale: 1, model.MapAllocated: 2, model.MapLeaked: 3}

// mapColours is a palette as one pixel for each page-map byte, on each
// square of the stale pages' checkerboard ([0] where x+y is even): RGBA
// packed as ImageData holds it (words), so that a pixel costs one look-up
// and one store, not a switch per page. A tenant's colour is the one
// colours gives its index (model.PoolMapView.Colours), else its own.
type mapColours [2][256]uint32

func (pal mapPalette) colours(colours []int) *mapColours {
	// Each colour is packed once, not once for each of the 256 bytes: a
	// scrub draws both maps each move.
	pack := func(c rgb) uint32 { return binary.NativeEndian.Uint32([]byte{c[0], c[1], c[2], 0xff}) }
	free, leak := pack(pal.free), pack(pal.leak)
	var tenants [8]uint32
	for i, c := range pal.tenants {
		tenants[i] = pack(c)
	}
	var t mapColours
	for b := range 256 {
		i := b>>model.MapOwnerShift - 1 // the tenant's index, -1 for none
		if i >= 0 && i < len(colours) {
			i = colours[i]
		}
		tenant := tenants[(i+8)%8]
		c := [2]uint32{free, free}
		switch byte(b) & model.MapStateMask {
		case model.MapLeaked:
			c = [2]uint32{leak, leak}
		case model.MapAllocated:
			c = [2]uint32{tenant, tenant}
		case model.MapStale:
			c[0] = tenant
		}
		t[0][b], t[1][b] = c[0], c[1]
	}
	return &t
}

// mapPixels turns a page map into the RGBA pixels of layout l, one pass,
// into dst (grown as needed). Not by colour alone: an allocated page is its
// tenant's colour, a stale one the same colour on a checkerboard with the
// free colour, a leaked one the leak colour (and ringed, when drawn:
// PoolMap.Draw). A pixel of several pages shows the most telling of them;
// pixels past the pool's last page are the free colour.
func mapPixels(dst []byte, v model.PoolMapView, l model.MapLayout, pal mapPalette) []byte {
	n := l.Width * l.Height
	if cap(dst) < 4*n {
		dst = make([]byte, 4*n)
	}
	dst = dst[:4*n]
	paint(words(dst), v, l, pal.colours(v.Colours), 0, n-1)
	return dst
}

// paint writes pixels first..last of layout l into px, row by row.
func paint(px []uint32, v model.PoolMapView, l model.MapLayout, tab *mapColours, first, last int) {
	per := l.PerPixel
	same := 0 // where the run of equal bytes last found ends (sameFrom)
	for p := first; p <= last; {
		y, x := p/l.Width, p%l.Width
		end := min(last+1, (y+1)*l.Width)   // this row's part
		on, off := &tab[y&1], &tab[(y+1)&1] // the squares where x is even, odd
		if x&1 == 1 {
			on, off = off, on
		}
		row := px[p:end]
		if per == 1 {
			pages := v.Map[min(p, len(v.Map)):min(end, len(v.Map))]
			i := 0
			for ; i+1 < len(pages); i += 2 { // two pixels a turn: one of each square
				row[i], row[i+1] = on[pages[i]], off[pages[i+1]]
			}
			if i < len(pages) {
				row[i] = on[pages[i]]
				i++
			}
			for ; i < len(row); i++ { // past the pool's last page
				row[i] = on[model.MapFree]
			}
			p = end
			continue
		}
		sq := [2]*[256]uint32{on, off}
		for i := 0; i < len(row); i++ {
			lo := min((p+i)*per, len(v.Map))
			hi := min(lo+per, len(v.Map))
			if lo >= same && lo < hi && v.Map[lo] == v.Map[hi-1] {
				same = sameFrom(v.Map, lo)
			}
			b := byte(model.MapFree)
			if lo < hi && hi <= same {
				// One run of equal bytes, and so are the next pixels
				// whose pages end by its end: a launch-scale reservation
				// is most of a map, filled as memory is copied.
				n := min(len(row)-i, max(1, (same-lo)/per))
				fillPair(row[i:i+n], sq[i&1][v.Map[lo]], sq[(i+1)&1][v.Map[lo]])
				i += n - 1
				continue
			}
			// The most telling of the pixel's pages, inline: a call a pixel
			// is most of a drawing's time in the wasm.
			rank := byte(0)
			for _, c := range v.Map[lo:hi] {
				if r := mapRank[c&model.MapStateMask]; c != b && r >= rank {
					b, rank = c, r
				}
			}
			row[i] = sq[i&1][b]
		}
		p = end
	}
}

// fillPair fills dst with a and b in turn, starting with a: doubling
// copies of an even length keep the turns.
func fillPair(dst []uint32, a, b uint32) {
	if len(dst) == 0 {
		return
	}
	dst[0] = a
	if len(dst) > 1 {
		dst[1] = b
	}
	for k := 2; k < len(dst); k *= 2 {
		copy(dst[k:], dst[:k])
	}
}

// sameFrom is where the run of bytes equal to m[i] that starts at i ends,
// found eight bytes at a time: a folded map's pixels mostly lie inside one
// run of the page table (a reservation is one), and reading a word for
// eight pages cost a fifth of reading the pages one by one.
func sameFrom(m []byte, i int) int {
	if i >= len(m) {
		return len(m)
	}
	b := m[i]
	all := uint64(b) * 0x0101010101010101
	j := i + 1
	for ; j+8 <= len(m); j += 8 {
		if *(*uint64)(unsafe.Pointer(&m[j])) != all {
			break
		}
	}
	for j < len(m) && m[j] == b {
		j++
	}
	return j
}

// repaint brings px, the pixels of the map's version drawn in layout was
// and palette wasPal, up to v in l and pal: when v follows that version in
// the same layout and palette, only the pixels of the pages v says changed
// (a step or a Send touches a slot, not the pool); else every pixel. dirty
// is the byte range of px it rewrote, for copying only that much to the
// canvas's ImageData.
func repaint(px []byte, drawn drawing, v model.PoolMapView, l model.MapLayout, pal mapPalette) (out []byte, dirty [2]int) {
	if v.AllChanged || !drawn.follows(v, l, pal) || len(px) != 4*l.Width*l.Height {
		px = mapPixels(px, v, l, pal)
		return px, [2]int{0, len(px)}
	}
	tab, w := pal.colours(v.Colours), words(px)
	dirty = [2]int{len(px), 0}
	for _, r := range v.ChangedPixels(l) {
		lo, hi := r[0], min(r[1], len(w)-1)
		if lo > hi {
			continue
		}
		paint(w, v, l, tab, lo, hi)
		dirty = [2]int{min(dirty[0], 4*lo), max(dirty[1], 4*hi+4)}
	}
	if dirty[0] > dirty[1] {
		dirty = [2]int{}
	}
	return px, dirty
}

// drawing is what a map's pixels show: a version of the view, in a layout,
// a palette and the tenants' colours.
type drawing struct {
	version int
	layout  model.MapLayout
	pal     mapPalette
	colours []int
}

// follows reports whether v is the next version after the drawing's, drawn
// the same way.
func (d drawing) follows(v model.PoolMapView, l model.MapLayout, pal mapPalette) bool {
	return d.version == v.Version-1 && d.layout == l && d.pal == pal && slices.Equal(d.colours, v.Colours)
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
