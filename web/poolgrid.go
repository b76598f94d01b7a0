package web

import (
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// poolGrid is the grid's cells as raw elements (gridhtml.go). As its
// own component it renders only when its cells change, not when the
// details line above it or the focused cell does.
//
// In the browser, a grid with the same cells as the one on screen (a step,
// a scrub, a Send) is patched in place: each changed cell's element gets
// the attributes and content that differ, and go-app keeps the runs it
// holds. Replacing a run of 32 tiles for the eight a step changes built,
// styled, laid out and painted 32 new tiles, and dropped the focus of a
// cell in it. Any other change renders the runs again, as a new generation
// once the elements were patched, so that no run go-app keeps shows cells
// it does not hold.
type poolGrid struct {
	app.Compo

	IGrid model.GridView

	runs    gridRunCache     // the runs go-app holds
	runKids []app.Value      // each run element's children (live), found once per render of the runs
	onPage  []model.CellView // what the cells' elements show, patched since
	drawn   []cellDrawn      // what they hold, for the cells patched since the runs rendered (else zero)
	patched bool             // onPage differs from runs' cells
	inPlace bool             // this update was patched: render the runs as they are
}

func newPoolGrid() *poolGrid { return &poolGrid{} }

func (c *poolGrid) Grid(v model.GridView) *poolGrid { c.IGrid = v; return c }

// OnUpdate patches the cells' elements when it can (go-app calls it before
// Render, once the new grid is in IGrid).
func (c *poolGrid) OnUpdate(ctx app.Context) {
	c.inPlace = app.IsClient && c.patch()
}

func (c *poolGrid) Render() app.UI {
	countRender("poolGrid")
	if !c.inPlace {
		if c.patched {
			c.runs.renew()
		}
		c.runs.render(c.IGrid)
		c.onPage, c.patched, c.runKids = slices.Clone(c.IGrid.Cells), false, nil
		c.drawn = slices.Grow(c.drawn[:0], len(c.onPage))[:len(c.onPage)]
		clear(c.drawn)
	}
	c.inPlace = false
	runs := c.runs.runs
	cls := "grid"
	if c.IGrid.Tiles {
		cls += " tiles"
	}
	return app.Div().ID("grid").Class(cls).Role("group").Aria("label", "Decode pool pages").Body(
		app.Range(runs).Slice(func(i int) app.UI { return app.Raw(runs[i]) }),
	)
}

// patch brings the cells' elements on the page to IGrid, if the grid has
// as many cells of the same kind as the one they show. It reports whether
// they show IGrid now; on false the runs render again (and a cell it could
// not find, which a page should never have, is replaced with the rest).
func (c *poolGrid) patch() bool {
	g := c.IGrid
	if !c.Mounted() || g.Tiles != c.runs.tiles || len(g.Cells) != len(c.onPage) {
		return false
	}
	if c.runKids == nil && !c.findRuns() {
		return false
	}
	for i, cell := range g.Cells {
		if cell == c.onPage[i] {
			continue
		}
		el := app.Undefined()
		if kids := c.runKids[i/gridRun]; kids.Truthy() {
			el = kids.Index(i % gridRun) // undefined past its end
		}
		if !el.Truthy() {
			c.patched = true
			return false
		}
		was := c.drawn[i]
		if was.attrs[0].name == "" { // not patched since the runs rendered
			was = drawnOf(c.onPage[i], g.Tiles)
		}
		p, now := patchFrom(was, cell, g.Tiles)
		applyPatch(el, p)
		c.onPage[i], c.drawn[i], c.patched = cell, now, true
	}
	return true
}

// findRuns keeps each run element's children: a live collection, so a
// cell is then one call away (finding it from the grid took five). It
// reports false when the page holds another count of runs.
func (c *poolGrid) findRuns() bool {
	runs := c.JSValue().Get("children")
	if runs.Length() != len(c.runs.runs) {
		return false
	}
	c.runKids = make([]app.Value, len(c.runs.runs))
	for r := range c.runKids {
		c.runKids[r] = runs.Index(r).Get("children")
	}
	return true
}

// applyPatch changes a cell's element: attributes as text, the content as
// the escaped HTML cellInner wrote.
func applyPatch(el app.Value, p cellPatch) {
	for _, a := range p.attrs {
		el.Call("setAttribute", a.name, a.value)
	}
	if p.setInner {
		el.Set("innerHTML", p.inner)
	}
}
