package pool

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// gridView is the pool as a grid of cells with a legend and a details
// line. It owns the grid's pointer and keyboard state: which cell is
// described, hovered and in the tab order (its events below). The
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
	widget.CountRender("gridView")
	wrap := app.Div()
	if c.IHidden || app.IsClient { // see widget/attrs.go: no hidden="false" in the prerendered page
		wrap = wrap.Hidden(c.IHidden)
	}
	return wrap.Body(
		app.Raw(legendHTML),
		app.Div().Class("grid-wrap").
			OnClick(widget.Safe(c.onCellClick)).OnKeyDown(widget.Safe(c.onCellKey)).On("focusin", widget.Safe(c.onCellFocus)).
			OnMouseOver(widget.Safe(c.onCellDetail)).OnMouseLeave(widget.Safe(c.onGridLeave)).
			Body(newPoolGrid().Grid(c.IGrid)),
		app.P().ID("cell-details").Class("cell-details").Aria("live", "polite").Text(widget.OrDefault(c.detail, "Point at, tap or focus a cell for its details (keyboard: Tab into the grid, the arrow keys move, Enter zooms into a range).")),
	)
}

// legendHTML is the grid's legend: fixed markup, one raw element, which
// go-app compares as a string on the render every step makes of the grid
// instead of building and diffing its nodes. The cells' states, then the
// ring of decode's read window (dom.CellClass: in-window, wrote).
const legendHTML = `<ul class="legend" aria-label="Legend">` + dom.CellLegend +
	`<li><span class="cell legend-cell state-free in-window" aria-hidden="true">·</span> ` +
	`<span class="cell legend-cell state-free in-window wrote" aria-hidden="true">·</span> ` +
	`decode&#39;s read window for the request: dashed, prefill never wrote it; solid, it did</li>` +
	`</ul>`

// The grid's events are read from the cell that fired (dom.EventCell),
// as they bubble up to the wrapper.

// onCellClick zooms into a range cell.
func (c *gridView) onCellClick(ctx app.Context, e app.Event) {
	cell, ok := dom.EventCell(e)
	if !ok {
		return
	}
	first, last, isRange := strings.Cut(cell.Pages(), "-")
	if !isRange {
		return
	}
	f, err1 := strconv.Atoi(first)
	l, err2 := strconv.Atoi(last)
	if err1 != nil || err2 != nil {
		return
	}
	c.detail, c.focus = "", 0
	c.onZoom(ctx, f, l)
	c.focusCell(ctx, 0)
}

// onCellDetail shows the hovered cell's description. Chromium re-fires
// mouseover when a redraw replaces the cell under a resting pointer; that
// is not the reader pointing anew, so a cell already described as it is
// now (same page, same label) leaves the details to the focused cell.
func (c *gridView) onCellDetail(ctx app.Context, e app.Event) {
	cell, ok := dom.EventCell(e)
	if !ok {
		c.hovered = ""
		ctx.PreventUpdate()
		return
	}
	d := cell.Name()
	key := cell.Pages() + "\n" + d
	if key == c.hovered || d == c.detail {
		c.hovered = key
		ctx.PreventUpdate()
		return
	}
	c.hovered, c.detail = key, d
}

// onGridLeave forgets the hovered cell: pointing at it again describes it.
// Hiding the grid under the table also fires mouseleave, though the pointer
// has not moved: that one is kept, so that showing the grid again (a
// re-fired mouseover) does not take the details from the focused cell.
func (c *gridView) onGridLeave(ctx app.Context, e app.Event) {
	if !c.IHidden {
		c.hovered = ""
	}
	ctx.PreventUpdate()
}

// onCellFocus shows the focused cell's details and moves the tab stop to
// it on the element. Not by rendering the grid: a click focuses the cell
// on mousedown, and a render then would replace its run before mouseup, so
// the browser would fire no click and the zoom would be lost.
func (c *gridView) onCellFocus(ctx app.Context, e app.Event) {
	if cell, ok := dom.EventCell(e); ok {
		c.focus = cell.Index()
		c.detail = cell.Name()
		c.stop.Set(cell, c.focus)
	}
}

// placeTabStop puts the grid's tab stop on the focused cell once go-app
// has updated the grid (dom.TabStop).
func (c *gridView) placeTabStop(ctx app.Context) {
	i := c.focus
	ctx.Defer(func(app.Context) { c.stop.Place(i) })
}

// onCellKey moves the focus with the arrow keys, Home and End.
func (c *gridView) onCellKey(ctx app.Context, e app.Event) {
	cell, ok := dom.EventCell(e)
	if !ok {
		return
	}
	i := cell.Index()
	next := gridMove(e.Get("key").String(), i, len(c.IGrid.Cells), dom.GridColumns())
	if next == i {
		return
	}
	e.PreventDefault()
	c.focus = next
	c.focusCell(ctx, next)
}

// focusCell moves the keyboard focus to cell i once the grid is rendered.
func (c *gridView) focusCell(ctx app.Context, i int) {
	ctx.Defer(func(app.Context) { dom.FocusCell(i) })
}

// gridMove is where a key press moves the focus from cell i of n, in a grid
// of cols columns. Keys it does not handle leave it at i.
func gridMove(key string, i, n, cols int) int {
	cols = max(cols, 1)
	next := i
	switch key {
	case "ArrowRight":
		next = i + 1
	case "ArrowLeft":
		next = i - 1
	case "ArrowDown":
		next = i + cols
	case "ArrowUp":
		next = i - cols
	case "Home":
		next = 0
	case "End":
		next = n - 1
	}
	if next < 0 || next >= n {
		return i
	}
	return next
}
