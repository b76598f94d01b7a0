package pool

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolGrid is the grid's cells, raw runs patched in place (dom.GridCells).
// As its own component it renders only when its cells change, not when the
// details line above it or the focused cell does.
type poolGrid struct {
	app.Compo

	// IGrid: while the timeline is dragged its cells keep their names
	// (model.Session.HoldNames), so a move changes most cells' classes only.
	IGrid model.GridView

	cells dom.Island[model.CellView]
}

func newPoolGrid() *poolGrid { return &poolGrid{} }

func (c *poolGrid) Grid(v model.GridView) *poolGrid { c.IGrid = v; return c }

// OnUpdate patches the cells' elements when it can (dom.Island.Patch).
func (c *poolGrid) OnUpdate(ctx app.Context) {
	if app.IsClient && c.Mounted() {
		c.cells.Patch(c.JSValue(), dom.GridCells(c.IGrid.Tiles), c.IGrid.Cells)
	}
}

func (c *poolGrid) Render() app.UI {
	widget.CountRender("poolGrid")
	runs := c.cells.Render(dom.GridCells(c.IGrid.Tiles), c.IGrid.Cells)
	cls := "grid"
	if c.IGrid.Tiles {
		cls += " tiles"
	}
	if c.IGrid.Held {
		cls += " held"
	}
	return app.Div().ID("grid").Class(cls).Role("group").Aria("label", "Decode pool pages").Body(
		app.Range(runs).Slice(func(i int) app.UI { return app.Raw(runs[i]) }),
	)
}
