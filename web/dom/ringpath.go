package dom

import "fmt"

// ringPath is the rings around a map's leaked runs (model.PoolMapView.Leaks:
// each run's rows as x, y, width), as one SVG path that a single Path2D
// strokes: a crossing of the wasm's boundary a map, not a dozen canvas calls
// a ring. A run of many rows is found at a glance with one frame around it
// (a ring and cross-hairs per row would cover it); a run of one or two rows
// gets, per row, two rings and cross-hairs from the canvas's edges that stop
// short of it, so that a few pixels among 681,280 stand out and keep their
// own colour.
func ringPath(leaks [][][3]int, width, height int) string {
	var p []byte
	line := func(x0, y0, x1, y1 int) {
		if x0 < x1 || y0 < y1 { // else no room between the edge and the ring
			p = fmt.Appendf(p, "M%d %dL%d %d", x0, y0, x1, y1)
		}
	}
	const gap, ring = 4, 10
	for _, rows := range leaks {
		if len(rows) > 2 {
			first, last := rows[0], rows[len(rows)-1]
			p = fmt.Appendf(p, "M1 %dh%dv%dh%dZ", first[1]-1, width-2, last[1]-first[1]+3, 2-width)
			continue
		}
		for _, row := range rows {
			x, y, w := row[0], row[1], row[2]
			for _, r := range [...]int{gap, ring} {
				p = fmt.Appendf(p, "M%d %dh%dv%dh%dZ", x-r, y-r, w+2*r, 1+2*r, -w-2*r)
			}
			line(0, y, x-ring, y)        // from the left edge
			line(x+w+ring, y, width, y)  // to the right edge
			line(x, 0, x, y-ring)        // from the top
			line(x, y+ring+1, x, height) // to the bottom
		}
	}
	return string(p)
}
