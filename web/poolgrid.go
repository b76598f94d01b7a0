package web

import (
	"slices"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/internal/jsonlite"
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
		c.onPage, c.patched = slices.Clone(c.IGrid.Cells), false
		c.drawn = slices.Grow(c.drawn[:0], len(c.onPage))[:len(c.onPage)]
		clear(c.drawn)
	}
	c.inPlace = false
	runs := c.runs.runs
	cls := "grid"
	if c.IGrid.Tiles {
		cls += " tiles"
	}
	return app.Div().ID("grid").Class(cls).Role("group").Aria("label", "KV pool pages").Body(
		app.Range(runs).Slice(func(i int) app.UI { return app.Raw(runs[i]) }),
	)
}

// patch brings the cells' elements on the page to IGrid, if the grid has
// as many cells of the same kind as the one they show, in one call to
// static/gridpatch.js. It reports whether they show IGrid now; on false
// the runs render again (and if the page lacked a cell, which it should
// never, or the script, they do as a new generation).
func (c *poolGrid) patch() bool {
	g := c.IGrid
	if !c.Mounted() || g.Tiles != c.runs.tiles || len(g.Cells) != len(c.onPage) {
		return false
	}
	var changed []int
	var spec [][]string
	var drawn []cellDrawn
	for i, cell := range g.Cells {
		if cell == c.onPage[i] {
			continue
		}
		was := c.drawn[i]
		if was.attrs[0].name == "" { // not patched since the runs rendered
			was = drawnOf(c.onPage[i], g.Tiles)
		}
		p, now := patchFrom(was, cell, g.Tiles)
		changed, spec, drawn = append(changed, i), append(spec, p.spec(i)), append(drawn, now)
	}
	if len(changed) == 0 {
		return true
	}
	if !applyPatches(c.JSValue(), spec) {
		c.patched = true
		return false
	}
	for k, i := range changed {
		c.onPage[i], c.drawn[i] = g.Cells[i], drawn[k]
	}
	c.patched = true
	return true
}

// applyPatches hands grid's cell patches to static/gridpatch.js as one
// JSON text. It reports false, having changed nothing, when a cell is not
// on the page or the script is not.
func applyPatches(grid app.Value, spec [][]string) bool {
	fn := app.Window().Get("kvleakPatchGrid")
	if !fn.Truthy() {
		return false
	}
	text, err := jsonlite.Marshal(spec)
	if err != nil {
		return false
	}
	return fn.Invoke(grid, gridRun, string(text)).Bool()
}
