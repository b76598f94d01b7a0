package web

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderGrid is the pool grid: the cells are one raw element (gridHTML), and
// the wrapper handles their events as they bubble up, reading the cell from
// the element — one set of listeners, never stale.
func (p *playground) renderGrid(g gridView) app.UI {
	return app.Div().Body(
		legend(),
		app.P().Class("hint").Text("Keyboard: Tab into the grid, move with the arrow keys, Enter zooms into a range."),
		app.Div().Class("grid-wrap").
			OnClick(p.onCellClick).OnKeyDown(p.onCellKey).On("focusin", p.onCellFocus).OnMouseOver(p.onCellDetail).OnMouseLeave(p.onGridLeave).
			Body(app.Raw(p.views.gridHTMLFor(g, p.focus))),
		app.P().ID("cell-details").Class("cell-details").Aria("live", "polite").Text(orDefault(p.detail, "Point at, tap or focus a cell for its details.")),
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

// eventCell is the grid cell an event happened in, if any.
func eventCell(e app.Event) (app.Value, bool) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return nil, false
	}
	c := target.Call("closest", "#grid .cell")
	return c, c.Truthy()
}

func cellInt(c app.Value, key string) int {
	n, _ := strconv.Atoi(c.Get("dataset").Get(key).String())
	return n
}

// onCellClick zooms into a range cell.
func (p *playground) onCellClick(ctx app.Context, e app.Event) {
	c, ok := eventCell(e)
	if !ok {
		return
	}
	first, last, isRange := strings.Cut(c.Get("dataset").Get("page").String(), "-")
	if !isRange {
		return
	}
	f, _ := strconv.Atoi(first)
	l, _ := strconv.Atoi(last)
	if p.s.zoom(f, l) == nil {
		p.detail, p.focus = "", 0
		p.sync(ctx)
		p.focusCell(ctx, 0)
	}
}

// onCellDetail shows the hovered cell's description. Chromium re-fires
// mouseover when a redraw replaces the cell under a resting pointer; that
// is not the reader pointing anew, so a cell already described as it is
// now (same page, same label) leaves the details to the focused cell.
func (p *playground) onCellDetail(ctx app.Context, e app.Event) {
	c, ok := eventCell(e)
	if !ok {
		p.hovered = ""
		ctx.PreventUpdate()
		return
	}
	d := c.Call("getAttribute", "aria-label").String()
	key := c.Get("dataset").Get("page").String() + "\n" + d
	if key == p.hovered || d == p.detail {
		p.hovered = key
		ctx.PreventUpdate()
		return
	}
	p.hovered, p.detail = key, d
}

// onGridLeave forgets the hovered cell: pointing at it again describes it.
func (p *playground) onGridLeave(ctx app.Context, e app.Event) {
	p.hovered = ""
	ctx.PreventUpdate()
}

func (p *playground) onCellFocus(ctx app.Context, e app.Event) {
	if c, ok := eventCell(e); ok {
		p.focus = cellInt(c, "idx")
		p.detail = c.Call("getAttribute", "aria-label").String()
	}
}

// onCellKey moves the focus with the arrow keys, Home and End.
func (p *playground) onCellKey(ctx app.Context, e app.Event) {
	c, ok := eventCell(e)
	if !ok {
		return
	}
	i := cellInt(c, "idx")
	n := app.Window().Get("document").Call("querySelectorAll", "#grid .cell").Length()
	next := gridMove(e.Get("key").String(), i, n, gridColumns())
	if next == i {
		return
	}
	e.PreventDefault()
	p.focus = next
	p.focusCell(ctx, next)
}

// focusCell moves the keyboard focus to cell i once the grid is rendered.
func (p *playground) focusCell(ctx app.Context, i int) {
	ctx.Defer(func(app.Context) {
		el := app.Window().Get("document").Call("querySelector", "#grid [data-idx='"+strconv.Itoa(i)+"']")
		if el.Truthy() {
			el.Call("focus")
		}
	})
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

// gridColumns reads how many columns the CSS grid laid out.
func gridColumns() int {
	grid := app.Window().GetElementByID("grid")
	if !grid.Truthy() {
		return 1
	}
	tpl := app.Window().Call("getComputedStyle", grid).Get("gridTemplateColumns").String()
	return len(strings.Fields(tpl))
}

func (p *playground) onZoomOut(ctx app.Context, e app.Event) {
	p.s.zoom(0, p.s.cfg.PoolPages()-1)
	p.focus = 0
	p.sync(ctx)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
