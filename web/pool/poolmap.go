package pool

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolMap draws every page of a large pool on a canvas (dom.PoolMap), as
// many pages to a pixel as the space it has asks (model.LayOutMap), with
// the leaked pages ringed so that 7 of 681,280 stand out, and names its
// spans in words beside it (mapRegions). A click zooms the grid below into
// the pages around it, a drag into the pages dragged over; the spans'
// page ranges zoom too, for the keyboard. The grid and the table stay the
// non-visual views of the pages.
type poolMap struct {
	app.Compo

	IMap model.PoolMapView
	// IScrubbing: the timeline is being dragged. The map follows every
	// move; its spans in words keep what they say until the drag ends
	// (regions): a move rewrote the list, its text laid out again.
	IScrubbing bool

	regions   model.MapRegions // the spans the list shows
	canvas    dom.PoolMap
	width     int // the map's box in CSS pixels, as measured in the page
	downAt    int // the page under the pointer when it went down, or -1
	stopTheme func()
	stopSize  func()
	onZoom    func(ctx app.Context, first, last int)
	// IID is the canvas's id: "pool-map", decode's, unless set; its figure
	// and list of spans take it as a prefix.
	IID string
}

// mapBoxWidth is the width a map is laid out for until the page measures
// its box: about the box's at 1280 px.
const mapBoxWidth = 480

func newPoolMap() *poolMap { return &poolMap{downAt: -1, IID: "pool-map", width: mapBoxWidth} }

func (c *poolMap) Map(v model.PoolMapView) *poolMap               { c.IMap = v; return c }
func (c *poolMap) ID(id string) *poolMap                          { c.IID = id; return c }
func (c *poolMap) Scrubbing(v bool) *poolMap                      { c.IScrubbing = v; return c }
func (c *poolMap) OnZoom(fn func(app.Context, int, int)) *poolMap { c.onZoom = fn; return c }

// OnMount draws the map and lays it out again whenever its box changes
// width (a phone turned, a window resized).
func (c *poolMap) OnMount(ctx app.Context) {
	c.downAt = -1
	c.stopTheme = dom.OnSchemeChange(func() { ctx.Dispatch(func(app.Context) { c.draw() }) })
	ctx.Defer(func(ctx app.Context) {
		c.stopSize = dom.OnMapBoxResize(c.IID, func(w int) {
			if w > 0 && w != c.width {
				// A component's own update runs no OnUpdate: draw after it.
				ctx.Dispatch(func(ctx app.Context) {
					c.width = w
					ctx.Defer(func(app.Context) { c.draw() })
				})
			}
		})
		c.draw()
	})
}

func (c *poolMap) OnDismount() {
	for _, stop := range []func(){c.stopTheme, c.stopSize} {
		if stop != nil {
			stop()
		}
	}
}

// OnUpdate draws the new map once go-app has updated the canvas element.
func (c *poolMap) OnUpdate(ctx app.Context) { ctx.Defer(func(app.Context) { c.draw() }) }

// mapZoomSpan is how many pages a click on the map zooms into.
const mapZoomSpan = 512

func (c *poolMap) layout() model.MapLayout { return model.LayOutMap(c.IMap.Pages, c.width) }

func (c *poolMap) Render() app.UI {
	widget.CountRender("poolMap")
	v, l := c.IMap, c.layout()
	th := func(n int) string { return engine.Thousands(int64(n)) }
	label := "Map of all " + th(v.Pages) + " pages, " + th(l.PerPixel) + " to a pixel: tenant colours for allocated pages, a checkerboard for stale ones, the leak colour ringed for the " +
		th(v.Leaked.Len()) + " leaked. Its spans are named beside it."
	caption := "Every page of the pool, " + th(l.PerPixel) + " to a pixel, " + th(l.Width*l.PerPixel) + " to a row"
	if c.onZoom != nil {
		caption += "; click or drag to zoom the grid below"
	}
	canvas := app.Canvas().ID(c.IID).Width(l.Width).Height(l.Height).Role("img").Aria("label", label)
	if c.onZoom != nil {
		canvas = canvas.Class("zoomable").OnMouseDown(widget.Safe(c.onDown)).OnMouseUp(widget.Safe(c.onUp))
	}
	return app.Figure().ID(c.IID+"-figure").Class("pool-map").Body(
		app.Div().Class("pool-map-box").Body(canvas),
		newMapRegions().ID(c.IID+"-regions").Regions(c.shownRegions()).OnZoom(c.onZoom),
		app.Raw(`<figcaption class="hint">`+html.EscapeString(caption+".")+`</figcaption>`),
	)
}

// shownRegions is the spans the list shows: the map's, but for a drag,
// which keeps those shown before it (a list shown first in a drag is the
// map's).
func (c *poolMap) shownRegions() model.MapRegions {
	if !c.IScrubbing || c.regions.Items == nil {
		c.regions = c.IMap.Regions
	}
	return c.regions
}

func (c *poolMap) onDown(ctx app.Context, e app.Event) {
	c.downAt = dom.PageAt(c.IID, e, c.layout())
	ctx.PreventUpdate()
}

// onUp zooms into the pages dragged over, or around the one clicked.
func (c *poolMap) onUp(ctx app.Context, e app.Event) {
	l := c.layout()
	from, to := c.downAt, dom.PageAt(c.IID, e, l)
	c.downAt = -1
	if from < 0 || c.onZoom == nil {
		return
	}
	first, last := min(from, to), max(from, to)+l.PerPixel-1
	if last-first < mapZoomSpan {
		mid := (first + last) / 2
		first = max(0, mid-mapZoomSpan/2)
		last = first + mapZoomSpan - 1
	}
	c.onZoom(ctx, first, min(last, c.IMap.Pages-1))
}

// draw paints the map on the canvas (dom.PoolMap).
func (c *poolMap) draw() { c.canvas.Draw(c.IID, c.IMap, c.layout()) }
