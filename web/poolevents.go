package web

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The grid's cells are one raw element (gridhtml.go), so their events are
// read from the element that fired, as they bubble up to the wrapper.

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
func (c *gridView) onCellClick(ctx app.Context, e app.Event) {
	cell, ok := eventCell(e)
	if !ok {
		return
	}
	first, last, isRange := strings.Cut(cell.Get("dataset").Get("page").String(), "-")
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
	cell, ok := eventCell(e)
	if !ok {
		c.hovered = ""
		ctx.PreventUpdate()
		return
	}
	d := cell.Call("getAttribute", "aria-label").String()
	key := cell.Get("dataset").Get("page").String() + "\n" + d
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
	if cell, ok := eventCell(e); ok {
		c.focus = cellInt(cell, "idx")
		c.detail = cell.Call("getAttribute", "aria-label").String()
		c.setTabStop(cell, c.focus)
	}
}

// placeTabStop puts the grid's tab stop on the focused cell once go-app
// has updated the grid: a roving tabindex, one cell at 0, the others -1.
// A grid patched in place (a step, a Send) keeps the cell's element, and
// with it the stop: finding the cell again took two querySelectors over the
// grid, half a millisecond of a Send's task.
func (c *gridView) placeTabStop(ctx app.Context) {
	i := c.focus
	ctx.Defer(func(app.Context) {
		if c.stop != nil && c.stopAt == i && c.stop.Get("isConnected").Bool() {
			return
		}
		if el := app.Window().Get("document").Call("querySelector", "#grid [data-idx='"+strconv.Itoa(i)+"']"); el.Truthy() {
			c.setTabStop(el, i)
		}
	})
}

// setTabStop makes cell, the grid's i-th, its one tab stop. The grid's
// HTML gives every cell -1, so the one at 0 is the one set here last.
func (c *gridView) setTabStop(cell app.Value, i int) {
	if c.stop != nil && !c.stop.Equal(cell) {
		c.stop.Set("tabIndex", -1)
	}
	cell.Set("tabIndex", 0)
	c.stop, c.stopAt = cell, i
}

// onCellKey moves the focus with the arrow keys, Home and End.
func (c *gridView) onCellKey(ctx app.Context, e app.Event) {
	cell, ok := eventCell(e)
	if !ok {
		return
	}
	i := cellInt(cell, "idx")
	next := gridMove(e.Get("key").String(), i, len(c.IGrid.Cells), gridColumns())
	if next == i {
		return
	}
	e.PreventDefault()
	c.focus = next
	c.focusCell(ctx, next)
}

// focusCell moves the keyboard focus to cell i once the grid is rendered.
func (c *gridView) focusCell(ctx app.Context, i int) {
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
