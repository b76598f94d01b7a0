package dom

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The grid's cells are raw markup (GridCells), so their events are read
// from the element that fired, as they bubble up to the grid's wrapper, and
// the grid's focus is kept on the elements.

// Cell is a cell of the pool grid in the page.
type Cell struct{ el app.Value }

// EventCell is the grid cell an event happened in, if any.
func EventCell(e app.Event) (Cell, bool) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return Cell{}, false
	}
	c := target.Call("closest", "#grid .cell")
	return Cell{c}, c.Truthy()
}

// Index is the cell's place in the grid (data-idx).
func (c Cell) Index() int {
	n, _ := strconv.Atoi(c.el.Get("dataset").Get("idx").String())
	return n
}

// Pages is the page or the range of pages it stands for (data-page).
func (c Cell) Pages() string { return c.el.Get("dataset").Get("page").String() }

// Name is its accessible name, which describes it.
func (c Cell) Name() string { return c.el.Call("getAttribute", "aria-label").String() }

// cellAt is the grid's i-th cell in the page, if any.
func cellAt(i int) (Cell, bool) {
	el := app.Window().Get("document").Call("querySelector", "#grid [data-idx='"+strconv.Itoa(i)+"']")
	return Cell{el}, el.Truthy()
}

// FocusCell moves the keyboard focus to the grid's i-th cell.
func FocusCell(i int) {
	if c, ok := cellAt(i); ok {
		c.el.Call("focus")
	}
}

// TabStop is the grid's one tab stop: a roving tabindex, one cell at 0,
// the others at the -1 the grid's markup gives them.
type TabStop struct {
	el app.Value // the cell that has it
	at int       // its index
}

// Set gives the tab stop to cell c, the grid's i-th.
func (t *TabStop) Set(c Cell, i int) {
	if t.el != nil && !t.el.Equal(c.el) {
		t.el.Set("tabIndex", -1)
	}
	c.el.Set("tabIndex", 0)
	t.el, t.at = c.el, i
}

// Place gives the tab stop to the grid's i-th cell once go-app has updated
// the grid (call it in ctx.Defer). A grid patched in place (a step, a Send)
// keeps the cell's element, and with it the stop: finding the cell again
// took two querySelectors over the grid, half a millisecond of a Send's
// task.
func (t *TabStop) Place(i int) {
	if t.el != nil && t.at == i && t.el.Get("isConnected").Bool() {
		return
	}
	if c, ok := cellAt(i); ok {
		t.Set(c, i)
	}
}

// GridColumns reads how many columns the CSS grid laid out.
func GridColumns() int {
	grid := app.Window().GetElementByID("grid")
	if !grid.Truthy() {
		return 1
	}
	tpl := app.Window().Call("getComputedStyle", grid).Get("gridTemplateColumns").String()
	return len(strings.Fields(tpl))
}
