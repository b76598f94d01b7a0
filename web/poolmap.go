package web

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// poolMap draws every page of a large pool on a canvas, one pixel each
// (mappixels.go), with the leaked pages ringed so that 7 of 681,280 stand
// out. A click zooms the grid below into the pages around it, a drag into
// the pages dragged over; the leaked runs are also listed as buttons, for
// the keyboard. The grid and the table stay the non-visual views.
type poolMap struct {
	app.Compo

	IMap model.PoolMapView

	rgba      []byte     // the pixels, reused between drawings
	drawn     int        // the map version rgba shows
	drawnPal  mapPalette // in these colours
	img       app.Value  // the canvas's ImageData, holding rgba
	downAt    int        // the page under the pointer when it went down, or -1
	stopTheme func()
	onZoom    func(ctx app.Context, first, last int)
	// IID is the canvas's id: "pool-map", decode's, unless set; its figure
	// and list of leaks take it as a prefix.
	IID string
}

func newPoolMap() *poolMap { return &poolMap{downAt: -1, IID: "pool-map"} }

func (c *poolMap) Map(v model.PoolMapView) *poolMap               { c.IMap = v; return c }
func (c *poolMap) ID(id string) *poolMap                          { c.IID = id; return c }
func (c *poolMap) OnZoom(fn func(app.Context, int, int)) *poolMap { c.onZoom = fn; return c }

func (c *poolMap) OnMount(ctx app.Context) {
	c.downAt = -1
	c.stopTheme = dom.OnSchemeChange(func() { ctx.Dispatch(func(app.Context) { c.draw() }) })
	ctx.Defer(func(app.Context) { c.draw() })
}

func (c *poolMap) OnDismount() {
	if c.stopTheme != nil {
		c.stopTheme()
	}
}

// OnUpdate draws the new map once go-app has updated the canvas element.
func (c *poolMap) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { c.draw() }) }

// mapZoomSpan is how many pages a click on the map zooms into.
const mapZoomSpan = 512

func (c *poolMap) Render() app.UI {
	countRender("poolMap")
	v := c.IMap
	leaked := []app.UI{}
	for _, r := range v.Leaked {
		leaked = append(leaked, app.Li().Body(app.Button().Type("button").Class("link").
			DataSet("first", r.First).DataSet("last", r.First+r.Count-1).
			Text(fmt.Sprintf("pages %s–%s", engine.Thousands(int64(r.First)), engine.Thousands(int64(r.First+r.Count-1)))).
			OnClick(safe(c.onLeakedClick))))
	}
	label := fmt.Sprintf("Map of all %s pages, %s per pixel: tenant colours for allocated pages, a checkerboard for stale ones, the leak colour ringed for the %s leaked.",
		engine.Thousands(int64(v.Pages)), engine.Thousands(int64(v.PerPixel)), engine.Thousands(int64(v.Leaked.Len())))
	caption := fmt.Sprintf("Every page of the pool, %d pages to a row; click or drag to zoom the grid below. ", v.Width*v.PerPixel)
	if c.onZoom == nil {
		caption = fmt.Sprintf("Every page of the pool, %d pages to a row. ", v.Width*v.PerPixel)
	}
	return app.Figure().ID(c.IID+"-figure").Class("pool-map").Body(
		app.Canvas().ID(c.IID).Width(v.Width).Height(v.Height).Role("img").Aria("label", label).
			OnMouseDown(safe(c.onDown)).OnMouseUp(safe(c.onUp)),
		app.FigCaption().Class("hint").Body(
			app.Text(caption),
			app.If(len(leaked) > 0, func() app.UI {
				return app.Span().Body(app.Strong().Text("⚠ Leaked into the last response: "), app.Ul().ID(c.IID+"-leaks").Class("inline-list").Body(leaked...))
			}),
		),
	)
}

// pageAt is the page under a pointer event on the canvas.
func (c *poolMap) pageAt(e app.Event) int {
	canvas := app.Window().GetElementByID(c.IID)
	rect := canvas.Call("getBoundingClientRect")
	w, h := rect.Get("width").Float(), rect.Get("height").Float()
	if w <= 0 || h <= 0 {
		return 0
	}
	x := int((e.Get("clientX").Float() - rect.Get("left").Float()) * float64(c.IMap.Width) / w)
	y := int((e.Get("clientY").Float() - rect.Get("top").Float()) * float64(c.IMap.Height) / h)
	return c.IMap.MapPage(x, y)
}

func (c *poolMap) onDown(ctx app.Context, e app.Event) {
	c.downAt = c.pageAt(e)
	ctx.PreventUpdate()
}

// onUp zooms into the pages dragged over, or around the one clicked.
func (c *poolMap) onUp(ctx app.Context, e app.Event) {
	from, to := c.downAt, c.pageAt(e)
	c.downAt = -1
	if from < 0 || c.onZoom == nil {
		return
	}
	first, last := min(from, to), max(from, to)+c.IMap.PerPixel-1
	if last-first < mapZoomSpan {
		mid := (first + last) / 2
		first = max(0, mid-mapZoomSpan/2)
		last = first + mapZoomSpan - 1
	}
	c.onZoom(ctx, first, min(last, c.IMap.Pages-1))
}

func (c *poolMap) onLeakedClick(ctx app.Context, e app.Event) {
	c.onZoom(ctx, dom.DataInt(ctx, "first"), dom.DataInt(ctx, "last"))
}

// draw paints the map: the pixels in one pass and one copy, then a ring
// around each leaked run.
func (c *poolMap) draw() {
	canvas := app.Window().GetElementByID(c.IID)
	v := c.IMap
	if !canvas.Truthy() || v.Width == 0 || v.Height == 0 {
		return
	}
	perf := app.Window().Get("performance")
	start := perf.Call("now").Float()
	// A User Timing measure: make bench reads each drawing's duration.
	defer perf.Call("measure", "kvleak:pool-map", map[string]any{"start": start})
	pal := lightMap
	if dom.DarkScheme() {
		pal = darkMap
	}
	var dirty [2]int
	c.rgba, dirty = repaint(c.rgba, c.drawn, c.drawnPal, v, pal)
	c.drawn, c.drawnPal = v.Version, pal
	g := canvas.Call("getContext", "2d")
	if c.img == nil || c.img.Get("width").Int() != v.Width || c.img.Get("height").Int() != v.Height {
		c.img, dirty = g.Call("createImageData", v.Width, v.Height), [2]int{0, len(c.rgba)}
	}
	// Only the bytes repaint rewrote cross into JavaScript; the whole image
	// goes back on the canvas, which also clears the last rings.
	if dirty[1] > dirty[0] {
		app.CopyBytesToJS(c.img.Get("data").Call("subarray", dirty[0], dirty[1]), c.rgba[dirty[0]:dirty[1]])
	}
	g.Call("putImageData", c.img, 0, 0)
	g.Set("strokeStyle", fmt.Sprintf("rgb(%d,%d,%d)", pal.ring[0], pal.ring[1], pal.ring[2]))
	g.Set("lineWidth", 2)
	for _, r := range v.Leaked {
		rows := mapRows(r, v)
		if len(rows) > 2 {
			// A run of many rows is found at a glance: one frame around
			// it, not a ring and cross-hairs per row, which would cover it.
			first, last := rows[0], rows[len(rows)-1]
			g.Call("strokeRect", 1, first[1]-1, v.Width-2, last[1]-first[1]+3)
			continue
		}
		for _, row := range rows {
			callOut(g, row, v.Width, v.Height)
		}
	}
}

// callOut rings a leaked run's row and draws cross-hairs to it from the
// canvas's edges, stopping short of it, so that a few pixels among 681,280
// are found at a glance and keep their own colour.
func callOut(g app.Value, row [3]int, width, height int) {
	const gap, ring = 4, 10
	x, y, w := row[0], row[1], row[2]
	g.Call("strokeRect", x-gap, y-gap, w+2*gap, 1+2*gap)
	g.Call("strokeRect", x-ring, y-ring, w+2*ring, 1+2*ring)
	g.Call("beginPath")
	for _, seg := range [][4]int{
		{0, y, x - ring, y}, {x + w + ring, y, width, y}, // across
		{x, 0, x, y - ring}, {x, y + ring + 1, x, height}, // down
	} {
		if seg[0] < seg[2] || seg[1] < seg[3] {
			g.Call("moveTo", seg[0], seg[1])
			g.Call("lineTo", seg[2], seg[3])
		}
	}
	g.Call("stroke")
}

// mapRows splits a run of pages into its rows on the map: x, y, width in
// pixels.
func mapRows(r engine.Run, v model.PoolMapView) [][3]int {
	var out [][3]int
	first, last := r.First/v.PerPixel, (r.First+r.Count-1)/v.PerPixel
	for px := first; px <= last; {
		x, y := px%v.Width, px/v.Width
		w := min(last-px+1, v.Width-x)
		out = append(out, [3]int{x, y, w})
		px += w
	}
	return out
}
