package pool

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolMap draws every page of a large pool on a canvas, one pixel each
// (dom.PoolMap), with the leaked pages ringed so that 7 of 681,280 stand
// out. A click zooms the grid below into the pages around it, a drag into
// the pages dragged over; the leaked runs are also listed as buttons, for
// the keyboard. The grid and the table stay the non-visual views.
type poolMap struct {
	app.Compo

	IMap model.PoolMapView

	canvas    dom.PoolMap
	downAt    int // the page under the pointer when it went down, or -1
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
	widget.CountRender("poolMap")
	v := c.IMap
	leaked := []app.UI{}
	for _, r := range v.Leaked {
		leaked = append(leaked, app.Li().Body(app.Button().Type("button").Class("link").
			DataSet("first", r.First).DataSet("last", r.First+r.Count-1).
			Text(fmt.Sprintf("pages %s–%s", engine.Thousands(int64(engine.PageID(r.First))), engine.Thousands(int64(engine.PageID(r.First+r.Count-1))))).
			OnClick(widget.Safe(c.onLeakedClick))))
	}
	label := fmt.Sprintf("Map of all %s pages, %s per pixel: tenant colours for allocated pages, a checkerboard for stale ones, the leak colour ringed for the %s leaked.",
		engine.Thousands(int64(v.Pages)), engine.Thousands(int64(v.PerPixel)), engine.Thousands(int64(v.Leaked.Len())))
	caption := fmt.Sprintf("Every page of the pool, %d pages to a row; click or drag to zoom the grid below. ", v.Width*v.PerPixel)
	if c.onZoom == nil {
		caption = fmt.Sprintf("Every page of the pool, %d pages to a row. ", v.Width*v.PerPixel)
	}
	return app.Figure().ID(c.IID+"-figure").Class("pool-map").Body(
		app.Canvas().ID(c.IID).Width(v.Width).Height(v.Height).Role("img").Aria("label", label).
			OnMouseDown(widget.Safe(c.onDown)).OnMouseUp(widget.Safe(c.onUp)),
		app.FigCaption().Class("hint").Body(
			app.Text(caption),
			app.If(len(leaked) > 0, func() app.UI {
				return app.Span().Body(app.Strong().Text("⚠ Leaked into the last response: "), app.Ul().ID(c.IID+"-leaks").Class("inline-list").Body(leaked...))
			}),
		),
	)
}

func (c *poolMap) onDown(ctx app.Context, e app.Event) {
	c.downAt = dom.PageAt(c.IID, e, c.IMap)
	ctx.PreventUpdate()
}

// onUp zooms into the pages dragged over, or around the one clicked.
func (c *poolMap) onUp(ctx app.Context, e app.Event) {
	from, to := c.downAt, dom.PageAt(c.IID, e, c.IMap)
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

// draw paints the map on the canvas (dom.PoolMap).
func (c *poolMap) draw() { c.canvas.Draw(c.IID, c.IMap) }
