package pool

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// mapRegions names a pool map's spans in words beside it
// (model.MapRegions): each span's pages, whose KV they hold and what they
// are at the step, in the response body's words, with a swatch of the
// map's colour for it. With onZoom, each span's pages are a button that
// zooms the grid to them: the map's keyboard path.
type mapRegions struct {
	app.Compo

	IRegions model.MapRegions
	IID      string

	onZoom func(ctx app.Context, first, last int)
}

func newMapRegions() *mapRegions { return &mapRegions{} }

func (c *mapRegions) Regions(v model.MapRegions) *mapRegions            { c.IRegions = v; return c }
func (c *mapRegions) ID(id string) *mapRegions                          { c.IID = id; return c }
func (c *mapRegions) OnZoom(fn func(app.Context, int, int)) *mapRegions { c.onZoom = fn; return c }

func (c *mapRegions) Render() app.UI {
	widget.CountRender("mapRegions")
	v := c.IRegions
	return app.Div().Class("map-regions").Body(
		app.If(v.Window != "", func() app.UI { return app.P().Class("map-window").Text(v.Window) }),
		app.Ul().ID(c.IID).Class("map-region-list").Aria("label", "The map's spans, in page order").Body(
			app.Range(v.Items).Slice(func(i int) app.UI { return c.item(v.Items[i]) }),
		),
		app.If(v.Unlisted != "", func() app.UI { return app.P().Class("hint").Text(v.Unlisted) }),
	)
}

// item is one span: its swatch, its pages, whose KV and what it is now.
func (c *mapRegions) item(r model.MapRegion) app.UI {
	swatch := "map-swatch swatch-" + string(r.State)
	if r.Tenant >= 0 {
		swatch += " tenant-" + strconv.Itoa(r.Tenant%8)
	}
	var pages app.UI = app.Span().Class("region-pages").Text(r.Pages)
	if c.onZoom != nil {
		pages = app.Button().Type("button").Class("link region-pages").
			DataSet("first", r.First).DataSet("last", r.Last).Text(r.Pages).OnClick(widget.Safe(c.onZoomClick))
	}
	cls := "region region-" + string(r.State)
	return app.Li().Class(cls).Body(
		app.Span().Class(swatch).Aria("hidden", "true"),
		app.Span().Body(
			pages, app.Text(" "),
			app.Span().Class("region-whose").Text(r.Whose), app.Text(" "),
			app.If(r.Leaked, func() app.UI { return app.Strong().Class("seg-flag").Text("⚠ LEAKED ") }),
			app.Text("— "), app.Span().Class("region-now").Text(r.Now),
		),
	)
}

// onZoomClick zooms the grid into the span whose pages were chosen.
func (c *mapRegions) onZoomClick(ctx app.Context, e app.Event) {
	c.onZoom(ctx, dom.DataInt(ctx, "first"), dom.DataInt(ctx, "last"))
}
