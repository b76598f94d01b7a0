package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
)

// gridView is the pool as a grid of cells with a legend and a details
// line. It owns the grid's pointer and keyboard state: which cell is
// described, hovered and in the tab order (its events: poolevents.go). The
// events are handled on the grid's wrapper as they bubble up: one set of
// listeners, and the cells (poolgrid.go) render only when they or the
// focused cell change, not when the details line does.
type gridView struct {
	app.Compo

	IGrid   model.GridView
	IHidden bool // the table is shown instead

	detail  string // description of the focused or hovered cell
	hovered string // the cell under the pointer as last described
	focus   int    // the cell in the tab order
	stop    dom.TabStop

	onZoom func(ctx app.Context, first, last int)
}

func newGridView() *gridView { return &gridView{} }

func (c *gridView) Grid(v model.GridView) *gridView                 { c.IGrid = v; return c }
func (c *gridView) Hidden(v bool) *gridView                         { c.IHidden = v; return c }
func (c *gridView) OnZoom(fn func(app.Context, int, int)) *gridView { c.onZoom = fn; return c }

// OnMount and OnUpdate put the grid's tab stop on the focused cell, kept
// inside a grid that changed size.
func (c *gridView) OnMount(ctx app.Context) { c.placeTabStop(ctx) }

func (c *gridView) OnUpdate(ctx app.Context) {
	if c.focus >= len(c.IGrid.Cells) {
		c.focus = 0
	}
	c.placeTabStop(ctx)
}

func (c *gridView) Render() app.UI {
	countRender("gridView")
	wrap := app.Div()
	if c.IHidden || app.IsClient { // see attrs.go: no hidden="false" in the prerendered page
		wrap = wrap.Hidden(c.IHidden)
	}
	return wrap.Body(
		app.Raw(legendHTML),
		app.P().Class("hint").Text("Keyboard: Tab into the grid, move with the arrow keys, Enter zooms into a range."),
		app.Div().Class("grid-wrap").
			OnClick(safe(c.onCellClick)).OnKeyDown(safe(c.onCellKey)).On("focusin", safe(c.onCellFocus)).
			OnMouseOver(safe(c.onCellDetail)).OnMouseLeave(safe(c.onGridLeave)).
			Body(newPoolGrid().Grid(c.IGrid)),
		app.P().ID("cell-details").Class("cell-details").Aria("live", "polite").Text(orDefault(c.detail, "Point at, tap or focus a cell for its details.")),
	)
}

// legendHTML is the grid's legend: fixed markup, one raw element, which
// go-app compares as a string on the render every step makes of the grid
// instead of building and diffing its thirteen nodes.
const legendHTML = `<ul class="legend" aria-label="Legend">` +
	`<li><span class="cell legend-cell state-free" aria-hidden="true">·</span> free</li>` +
	`<li><span class="cell legend-cell state-allocated" aria-hidden="true">A</span> allocated (letter: tenant)</li>` +
	`<li><span class="cell legend-cell state-stale" aria-hidden="true">A</span> free but stale: still holds a tenant&#39;s KV</li>` +
	`<li><span class="cell legend-cell state-leaked" aria-hidden="true">A!</span> LEAKED into the last response</li>` +
	`<li><span class="cell legend-cell state-allocated mixed" aria-hidden="true">B+</span> holds another writer&#39;s KV past its first positions</li>` +
	`</ul>`

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
