package pool

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolView shows the two servers' pools at the selected step: prefill's
// (prefillpool.go), then decode's, where a leak lands, as a grid
// (gridview.go) or as a table for readers who prefer one.
type poolView struct {
	app.Compo

	IPool    model.PoolPanelView
	IPrefill model.PrefillPoolView
	IFolded  bool // prefill's pool folded (the compact embed)
	ICompare bool
	// IScrubbing: the timeline is being dragged; the maps' spans keep
	// their words until it ends (poolMap), as the grid's cells their names
	// (model.Session.HoldNames).
	IScrubbing bool

	table bool

	onZoom    func(ctx app.Context, first, last int)
	onZoomOut func(ctx app.Context)
	onCompare func(ctx app.Context)
}

func NewPoolView() *poolView { return &poolView{} }

func (c *poolView) Pool(v model.PoolPanelView) *poolView            { c.IPool = v; return c }
func (c *poolView) Prefill(v model.PrefillPoolView) *poolView       { c.IPrefill = v; return c }
func (c *poolView) FoldPrefill(v bool) *poolView                    { c.IFolded = v; return c }
func (c *poolView) Compare(v bool) *poolView                        { c.ICompare = v; return c }
func (c *poolView) Scrubbing(v bool) *poolView                      { c.IScrubbing = v; return c }
func (c *poolView) OnZoom(fn func(app.Context, int, int)) *poolView { c.onZoom = fn; return c }
func (c *poolView) OnZoomOut(fn func(app.Context)) *poolView        { c.onZoomOut = fn; return c }
func (c *poolView) OnCompare(fn func(app.Context)) *poolView        { c.onCompare = fn; return c }

func (c *poolView) Render() app.UI {
	widget.CountRender("poolView")
	v := c.IPool
	if v.Err != "" {
		return app.P().Class("field-error").Text(v.Err)
	}
	g := v.Grid
	caption := "the latest step"
	if v.Selected > 0 {
		when := "" // a drag outlines no page (model.Session.HoldNames)
		if c.IScrubbing {
			when = " when the drag ends"
		}
		caption = fmt.Sprintf("step %d (pages it touched are outlined%s)", v.Selected, when)
	}
	toggle, compare := "Show as a table", "Compare vulnerable and fixed"
	if c.table {
		toggle = "Show as a grid"
	}
	if c.ICompare {
		compare = "Hide the comparison"
	}
	// The grid stays mounted under the table, hidden, so that it keeps the
	// cell in focus and the details when the reader switches back.
	grid := newGridView().Grid(g).Hidden(c.table).OnZoom(c.onZoom)
	table := app.If(c.table, func() app.UI { return poolTable(g) })
	return app.Section().ID("pool-panel").Class("panel").Aria("labelledby", "pool-h").Body(
		app.Raw(`<h2 id="pool-h">KV pools</h2>`),
		newPrefillPool().Pool(c.IPrefill).Folded(c.IFolded).Scrubbing(c.IScrubbing),
		app.Div().ID("pool-decode").Class("pool-server").Body(c.decode(g, caption, toggle, compare, grid, table)...),
	)
}

// decode is decode's pool: its controls, the map, the grid and the table.
func (c *poolView) decode(g model.GridView, caption, toggle, compare string, grid, table app.UI) []app.UI {
	v := c.IPool
	return []app.UI{
		app.Raw(`<h3 id="pool-decode-h">Decode server's pool</h3>`),
		app.Div().Class("row wrap").Body(
			app.Button().ID("table-toggle").Type("button").Class("secondary").Aria("pressed", c.table).Text(toggle).OnClick(widget.Safe(c.onTable)),
			app.Button().ID("compare-toggle").Type("button").Class("secondary").Aria("pressed", c.ICompare).Text(compare).
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onCompare(ctx) })),
			app.P().Class("hint").Body(
				app.Text(g.Summary+". Showing the pool after "+caption+". "),
				app.If(g.Zoomed, func() app.UI {
					return app.Button().ID("zoom-out").Type("button").Class("link").Text("Show the whole pool").OnClick(widget.Safe(c.onZoomOutClick))
				}),
			),
		),
		widget.Hint("pool-note", "the allocator", v.Note),
		app.If(v.Map.Show, func() app.UI { return newPoolMap().Map(v.Map).Scrubbing(c.IScrubbing).OnZoom(c.onZoom) }),
		grid,
		table,
	}
}

func (c *poolView) onTable(ctx app.Context, e app.Event) { c.table = !c.table }

func (c *poolView) onZoomOutClick(ctx app.Context, e app.Event) { c.onZoomOut(ctx) }
