package web

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// poolView shows the pool at the selected step as a grid, or as a table for
// readers who prefer one. It owns the grid's pointer and keyboard state:
// which cell is described, hovered and in the tab order (poolevents.go).
type poolView struct {
	app.Compo

	IGrid     model.GridView
	IErr      string
	ISelected int // the selected step (0: the latest)
	ICompare  bool

	table   bool
	detail  string // description of the focused or hovered cell
	hovered string // the cell under the pointer as last described
	focus   int    // the cell in the tab order

	onZoom    func(ctx app.Context, first, last int)
	onZoomOut func(ctx app.Context)
	onCompare func(ctx app.Context)
}

func newPoolView() *poolView { return &poolView{} }

func (c *poolView) Grid(v model.GridView) *poolView                 { c.IGrid = v; return c }
func (c *poolView) Err(v string) *poolView                          { c.IErr = v; return c }
func (c *poolView) Selected(v int) *poolView                        { c.ISelected = v; return c }
func (c *poolView) Compare(v bool) *poolView                        { c.ICompare = v; return c }
func (c *poolView) OnZoom(fn func(app.Context, int, int)) *poolView { c.onZoom = fn; return c }
func (c *poolView) OnZoomOut(fn func(app.Context)) *poolView        { c.onZoomOut = fn; return c }
func (c *poolView) OnCompare(fn func(app.Context)) *poolView        { c.onCompare = fn; return c }

// OnUpdate keeps the focused cell inside a grid that changed size.
func (c *poolView) OnUpdate(ctx app.Context) {
	if c.focus >= len(c.IGrid.Cells) {
		c.focus = 0
	}
}

func (c *poolView) Render() app.UI {
	countRender("poolView")
	if c.IErr != "" {
		return app.P().Class("field-error").Text(c.IErr)
	}
	g := c.IGrid
	caption := "the latest step"
	if c.ISelected > 0 {
		caption = fmt.Sprintf("step %d (pages it touched are outlined)", c.ISelected)
	}
	toggle, compare := "Show as a table", "Compare vulnerable and fixed"
	if c.table {
		toggle = "Show as a grid"
	}
	if c.ICompare {
		compare = "Hide the comparison"
	}
	var view app.UI
	if c.table {
		view = poolTable(g)
	} else {
		view = c.renderGrid()
	}
	return app.Section().Class("panel").Aria("labelledby", "pool-h").Body(
		app.H2().ID("pool-h").Text("KV pool"),
		app.Div().Class("row wrap").Body(
			app.Button().ID("table-toggle").Type("button").Class("secondary").Aria("pressed", c.table).Text(toggle).OnClick(safe(c.onTable)),
			app.Button().ID("compare-toggle").Type("button").Class("secondary").Aria("pressed", c.ICompare).Text(compare).
				OnClick(safe(func(ctx app.Context, e app.Event) { c.onCompare(ctx) })),
		),
		app.P().Class("hint").Body(
			app.Text(g.Summary+". Showing the pool after "+caption+". "),
			app.If(g.Zoomed, func() app.UI {
				return app.Button().ID("zoom-out").Type("button").Class("link").Text("Show the whole pool").OnClick(safe(c.onZoomOutClick))
			}),
		),
		view,
	)
}

// renderGrid is the legend, the grid and the details line. The grid's
// events are handled here, on its wrapper, as they bubble up: one set of
// listeners, and the grid component (poolgrid.go) renders only when its
// cells or the focused cell change.
func (c *poolView) renderGrid() app.UI {
	return app.Div().Body(
		legend(),
		app.P().Class("hint").Text("Keyboard: Tab into the grid, move with the arrow keys, Enter zooms into a range."),
		app.Div().Class("grid-wrap").
			OnClick(safe(c.onCellClick)).OnKeyDown(safe(c.onCellKey)).On("focusin", safe(c.onCellFocus)).
			OnMouseOver(safe(c.onCellDetail)).OnMouseLeave(safe(c.onGridLeave)).
			Body(newPoolGrid().Grid(c.IGrid).Focus(c.focus)),
		app.P().ID("cell-details").Class("cell-details").Aria("live", "polite").Text(orDefault(c.detail, "Point at, tap or focus a cell for its details.")),
	)
}

func legend() app.UI {
	item := func(state, mark, text string) app.UI {
		return app.Li().Body(app.Span().Class("cell legend-cell state-"+state).Aria("hidden", "true").Text(mark), app.Text(" "+text))
	}
	return app.Ul().Class("legend").Aria("label", "Legend").Body(
		item("free", "·", "free"),
		item("allocated", "A", "allocated (letter: tenant)"),
		item("stale", "A", "free but stale: still holds a tenant's KV"),
		item("leaked", "A!", "LEAKED into the last response"),
	)
}

func (c *poolView) onTable(ctx app.Context, e app.Event) { c.table = !c.table }

func (c *poolView) onZoomOutClick(ctx app.Context, e app.Event) {
	c.focus = 0
	c.onZoomOut(ctx)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
