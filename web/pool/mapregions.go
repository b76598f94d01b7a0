package pool

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// mapRegions names a pool map's spans in words beside it
// (model.MapRegions): each span's pages, whose KV they hold and what they
// are at the step, in the response body's words, with a swatch of the
// map's colour for it (dom.MapRegionsHTML). With onZoom, each span's pages
// are a button that zooms the grid to them: the map's keyboard path.
type mapRegions struct {
	app.Compo

	IRegions model.MapRegions
	IID      string
	IZoom    bool // the spans' pages zoom the grid

	onZoom func(ctx app.Context, first, last int)
}

func newMapRegions() *mapRegions { return &mapRegions{} }

func (c *mapRegions) Regions(v model.MapRegions) *mapRegions { c.IRegions = v; return c }
func (c *mapRegions) ID(id string) *mapRegions               { c.IID = id; return c }
func (c *mapRegions) OnZoom(fn func(app.Context, int, int)) *mapRegions {
	c.onZoom, c.IZoom = fn, fn != nil
	return c
}

func (c *mapRegions) Render() app.UI {
	widget.CountRender("mapRegions")
	v := c.IRegions
	return app.Div().Class("map-regions").OnClick(widget.Safe(c.onClick)).Body(
		app.If(v.Window != "", func() app.UI { return app.P().Class("map-window").Text(v.Window) }),
		app.Raw(dom.MapRegionsHTML(c.IID, v.Items, c.IZoom)),
		app.If(v.Unlisted != "", func() app.UI { return app.P().Class("hint").Text(v.Unlisted) }),
	)
}

// onClick zooms the grid into the span whose pages were chosen.
func (c *mapRegions) onClick(ctx app.Context, e app.Event) {
	first, last, ok := dom.ClickedSpan(e)
	if !ok || c.onZoom == nil {
		ctx.PreventUpdate() // a click on the words, not a span's pages
		return
	}
	c.onZoom(ctx, first, last)
}
