package main

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// Design units: everything is laid out on a 512×512 canvas, like the SVG
// viewBox, and scaled for each PNG size.
const canvas = 512

var (
	bg     = color.NRGBA{0x1f, 0x29, 0x37, 0xff} // dark slate
	slot   = color.NRGBA{0x4b, 0x55, 0x63, 0xff} // an ordinary KV page slot
	leaked = color.NRGBA{0xf5, 0x9e, 0x0b, 0xff} // the slot that leaked
)

// rect is a rounded rectangle in design units.
type rect struct {
	x, y, w, h, r float64
	fill          color.NRGBA
}

// design is the icon: 8 KV page slots in a 4×2 grid, one highlighted.
// The maskable variant bleeds the background to the edges and shrinks the
// grid by 0.8 so it stays inside the 40%-radius safe circle.
func design(maskable bool) []rect {
	rs := []rect{{0, 0, canvas, canvas, 96, bg}}
	scale := 1.0
	if maskable {
		rs[0].r = 0
		scale = 0.8
	}
	const size, gap, left, top = 88.0, 24.0, 44.0, 156.0
	for i := range 8 {
		col, row := float64(i%4), float64(i/4)
		fill := slot
		if i == 6 {
			fill = leaked
		}
		r := rect{left + col*(size+gap), top + row*(size+gap), size, size, 14, fill}
		// Scale around the canvas centre.
		c := canvas / 2.0
		r.x, r.y = c+(r.x-c)*scale, c+(r.y-c)*scale
		r.w, r.h, r.r = r.w*scale, r.h*scale, r.r*scale
		rs = append(rs, r)
	}
	return rs
}

// SVG renders the non-maskable design as an SVG document.
func SVG() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d">`+"\n", canvas, canvas)
	for _, r := range design(false) {
		fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" rx="%g" fill="#%02x%02x%02x"/>`+"\n",
			r.x, r.y, r.w, r.h, r.r, r.fill.R, r.fill.G, r.fill.B)
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// Image rasterises the design at size×size pixels.
func Image(size int, maskable bool) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	unit := float64(canvas) / float64(size)
	for _, r := range design(maskable) {
		mask := coverage(r, size, unit)
		draw.DrawMask(img, img.Bounds(), image.NewUniform(r.fill), image.Point{}, mask, image.Point{}, draw.Over)
	}
	return img
}

// coverage is the anti-aliased mask of r: 4×4 samples per pixel, since
// image/draw has no shapes of its own beyond rectangles.
func coverage(r rect, size int, unit float64) *image.Alpha {
	const n = 4
	m := image.NewAlpha(image.Rect(0, 0, size, size))
	for py := range size {
		for px := range size {
			hits := 0
			for sy := range n {
				for sx := range n {
					x := (float64(px) + (float64(sx)+0.5)/n) * unit
					y := (float64(py) + (float64(sy)+0.5)/n) * unit
					if r.contains(x, y) {
						hits++
					}
				}
			}
			m.SetAlpha(px, py, color.Alpha{uint8(hits * 255 / (n * n))})
		}
	}
	return m
}

func (r rect) contains(x, y float64) bool {
	if x < r.x || y < r.y || x > r.x+r.w || y > r.y+r.h {
		return false
	}
	// Distance into the nearest corner's circle, if the point is in a corner box.
	cx := min(max(x, r.x+r.r), r.x+r.w-r.r)
	cy := min(max(y, r.y+r.r), r.y+r.h-r.r)
	dx, dy := x-cx, y-cy
	return dx*dx+dy*dy <= r.r*r.r
}

// PNG encodes Image(size, maskable).
func PNG(size int, maskable bool) ([]byte, error) {
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, Image(size, maskable)); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
