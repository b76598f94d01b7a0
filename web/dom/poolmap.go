package dom

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// PoolMap paints a pool's map (model.PoolMapView) on a canvas in a layout
// (model.MapLayout): a pixel a page or a fold of pages (mapPixels), with
// the leaked pages ringed so that 7 of 681,280 stand out. It keeps the
// pixels between drawings: a step or a Send repaints only the pixels of
// the pages it changed (repaint), and only those bytes cross into
// JavaScript.
type PoolMap struct {
	rgba  []byte    // the pixels, reused between drawings
	drawn drawing   // what rgba shows
	img   app.Value // the canvas's ImageData, holding rgba
}

// PageAt is the page of layout l under a pointer event on the canvas of
// that id.
func PageAt(id string, e app.Event, l model.MapLayout) int {
	canvas := app.Window().GetElementByID(id)
	rect := canvas.Call("getBoundingClientRect")
	w, h := rect.Get("width").Float(), rect.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0
	}
	x := int((e.Get("clientX").Float() - rect.Get("left").Float()) * float64(l.Width) / w)
	y := int((e.Get("clientY").Float() - rect.Get("top").Float()) * float64(l.Height) / h)
	return l.PageAt(x, y)
}

// OnMapBoxResize calls fn with the width in CSS pixels of the box the
// map's canvas of that id fills (its parent), now and whenever it changes,
// as the browser lays the page out (a ResizeObserver: nothing is measured
// in the middle of an update). It returns a stop function.
func OnMapBoxResize(id string, fn func(width int)) func() {
	canvas := app.Window().GetElementByID(id)
	ro := app.Window().Get("ResizeObserver")
	if !canvas.Truthy() || !canvas.Get("parentElement").Truthy() || !ro.Truthy() {
		return func() {}
	}
	cb := app.FuncOf(func(_ app.Value, args []app.Value) any {
		if len(args) > 0 && args[0].Length() > 0 {
			fn(int(args[0].Index(args[0].Length() - 1).Get("contentRect").Get("width").Float()))
		}
		return nil
	})
	obs := ro.New(cb)
	obs.Call("observe", canvas.Get("parentElement"))
	return func() {
		obs.Call("disconnect")
		cb.Release()
	}
}

// Draw paints v in layout l on the canvas of that id, which go-app gave
// l's size: the pixels in one pass and one copy, then a ring around each
// leaked run.
func (m *PoolMap) Draw(id string, v model.PoolMapView, l model.MapLayout) {
	canvas := app.Window().GetElementByID(id)
	if !canvas.Truthy() || l.Width == 0 || l.Height == 0 || canvas.Get("width").Int() != l.Width || canvas.Get("height").Int() != l.Height {
		return
	}
	perf := app.Window().Get("performance")
	start := perf.Call("now").Float()
	// A User Timing measure: make bench reads each drawing's duration.
	defer perf.Call("measure", "kvleak:pool-map", map[string]any{"start": start})
	pal := lightMap
	if DarkScheme() {
		pal = darkMap
	}
	var dirty [2]int
	m.rgba, dirty = repaint(m.rgba, m.drawn, v, l, pal)
	m.drawn = drawing{version: v.Version, layout: l, pal: pal, colours: v.Colours}
	g := canvas.Call("getContext", "2d")
	if m.img == nil || m.img.Get("width").Int() != l.Width || m.img.Get("height").Int() != l.Height {
		m.img, dirty = g.Call("createImageData", l.Width, l.Height), [2]int{0, len(m.rgba)}
	}
	// Only the bytes repaint rewrote cross into JavaScript; the whole image
	// goes back on the canvas, which also clears the last rings.
	if dirty[1] > dirty[0] {
		app.CopyBytesToJS(m.img.Get("data").Call("subarray", dirty[0], dirty[1]), m.rgba[dirty[0]:dirty[1]])
	}
	g.Call("putImageData", m.img, 0, 0)
	if path := ringPath(v.Leaks(l), l.Width, l.Height); path != "" {
		g.Set("strokeStyle", fmt.Sprintf("rgb(%d,%d,%d)", pal.ring[0], pal.ring[1], pal.ring[2]))
		g.Set("lineWidth", 2)
		g.Call("stroke", app.Window().Get("Path2D").New(path))
	}
}
