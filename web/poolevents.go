package web

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
)

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
