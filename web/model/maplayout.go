package model

import "kvleak/engine"

// MapMaxHeight is the tallest a pool map is drawn, in CSS pixels: prefill's
// map, decode's and the top of the grid then share a laptop's screen, and
// a phone's map is no taller than the phone is wide.
const MapMaxHeight = 360

// MapMaxScale is the largest a map's pixel is drawn, in CSS pixels: a
// small pool's map is shorter rather than coarser.
const MapMaxScale = 4

// MapFrom is the smallest pool drawn as a map: below it the grid shows
// every page.
const MapFrom = MaxGridCells + 1

// A page map's bytes, as the engine writes them (engine.PageMap): a state
// in the low bits, the owning tenant's index plus one above them.
const (
	MapFree       = engine.MapFree
	MapAllocated  = engine.MapAllocated
	MapStale      = engine.MapStale
	MapLeaked     = engine.MapLeaked
	MapStateMask  = engine.MapStateMask
	MapOwnerShift = engine.MapOwnerShift
)

// MapLayout is how a pool's pages fill a map: Width × Height pixels,
// PerPixel pages to each, row by row from the top left. The canvas holds
// that many pixels and is scaled to its box's width.
type MapLayout struct {
	Pages, Width, Height, PerPixel int
}

// LayOutMap is the map of pages for a box width CSS pixels wide: its
// resolution follows the space. A pool with more pages than the box holds
// pixels (MapMaxHeight rows of width) folds the fewest pages per pixel
// that fit; a smaller one gets a page a pixel, in fewer, larger pixels
// (the canvas scaled up, MapMaxScale at most), as many columns as keep the
// scaled map within MapMaxHeight.
func LayOutMap(pages, width int) MapLayout {
	if pages <= 0 {
		return MapLayout{}
	}
	width = max(width, 1)
	if room := width * MapMaxHeight; pages > room {
		per := (pages + room - 1) / room
		return MapLayout{Pages: pages, Width: width, Height: (pages + per*width - 1) / (per * width), PerPixel: per}
	}
	// Columns c with ceil(pages/c) rows, drawn width/c CSS pixels each:
	// the fewest columns whose map is at most MapMaxHeight tall, and whose
	// pixels are at most MapMaxScale CSS pixels wide.
	c := max(1, isqrt(pages*width/MapMaxHeight), (width+MapMaxScale-1)/MapMaxScale)
	for c < width && (pages+c-1)/c*width > MapMaxHeight*c {
		c++
	}
	c = min(c, width)
	return MapLayout{Pages: pages, Width: c, Height: (pages + c - 1) / c, PerPixel: 1}
}

// isqrt is the integer square root of n ≥ 0, rounded down.
func isqrt(n int) int {
	r := 0
	for b := 1 << 30; b > 0; b >>= 1 {
		if (r+b)*(r+b) <= n {
			r += b
		}
	}
	return r
}

// CSSHeight is the map's height in CSS pixels drawn width CSS pixels wide.
func (l MapLayout) CSSHeight(width int) float64 {
	if l.Width == 0 {
		return 0
	}
	return float64(l.Height) * float64(width) / float64(l.Width)
}

// PageAt is the first page the pixel at x, y stands for, clamped to the
// pool.
func (l MapLayout) PageAt(x, y int) int {
	p := (y*l.Width + x) * l.PerPixel
	return min(max(p, 0), l.Pages-1)
}

// PixelOf is the pixel that stands for page id, counted row by row.
func (l MapLayout) PixelOf(id int) int { return id / l.PerPixel }

// Rows splits pages first..last into their rows on the map: x, y and width
// in pixels, one a row.
func (l MapLayout) Rows(first, last int) [][3]int {
	var out [][3]int
	lo, hi := l.PixelOf(first), l.PixelOf(last)
	for px := lo; px <= hi; {
		x, y := px%l.Width, px/l.Width
		w := min(hi-px+1, l.Width-x)
		out = append(out, [3]int{x, y, w})
		px += w
	}
	return out
}

// Pixels are the pixels that stand for pages, as ranges [first, last] in
// page order, neighbours merged.
func (l MapLayout) Pixels(pages engine.Pages) [][2]int {
	var out [][2]int
	for _, r := range pages {
		if r.Count <= 0 {
			continue
		}
		lo, hi := l.PixelOf(r.First), l.PixelOf(min(r.First+r.Count, l.Pages)-1)
		if k := len(out) - 1; k >= 0 && lo <= out[k][1]+1 && hi >= out[k][0]-1 {
			out[k] = [2]int{min(out[k][0], lo), max(out[k][1], hi)}
			continue
		}
		out = append(out, [2]int{lo, hi})
	}
	return out
}
