package web

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// cell is one grid button. Only the focused cell is in the tab order (a
// roving tabindex): Tab enters the grid once and the arrow keys move in it.
func (p *playground) cell(c cellView, i, n int) app.UI {
	cls := cellClass(c)
	label := c.Label
	if c.First != c.Last {
		label += ". Select to zoom in."
	}
	tab := -1
	if i == min(p.focus, n-1) {
		tab = 0
	}
	return app.Button().Type("button").Class(cls).TabIndex(tab).DataSet("idx", i).
		DataSet("page", c.Page).DataSet("owner", c.Owner).DataSet("state", string(c.State)).
		Aria("label", label).Title(label).
		OnClick(p.onCell(c)).OnFocus(p.onCellFocus(i, label)).OnMouseEnter(p.onDetail(label)).
		OnKeyDown(p.onCellKey(i, n)).
		Text(c.Mark)
}

func (p *playground) onCellFocus(i int, label string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.focus, p.detail = i, label }
}

// onCellKey moves the focus with the arrow keys, Home and End.
func (p *playground) onCellKey(i, n int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		next := gridMove(e.Get("key").String(), i, n, gridColumns())
		if next == i {
			return
		}
		e.PreventDefault()
		p.focus = next
		ctx.Defer(func(app.Context) {
			el := app.Window().Get("document").Call("querySelector", "#grid [data-idx='"+strconv.Itoa(next)+"']")
			if el.Truthy() {
				el.Call("focus")
			}
		})
	}
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

func (p *playground) onCell(c cellView) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if c.First != c.Last {
			p.s.zoom(c.First, c.Last)
			p.sync(ctx)
			p.detail, p.focus = "", 0
		}
	}
}

func (p *playground) onDetail(label string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.detail = label }
}

func (p *playground) onZoomOut(ctx app.Context, e app.Event) {
	p.s.zoom(0, p.s.cfg.PoolPages()-1)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
