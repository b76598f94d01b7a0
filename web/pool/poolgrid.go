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

	IGrid model.GridView
	// IScrubbing: the timeline is being dragged. Each cell keeps the name
	// it has until the drag ends (heldNames): a move across a reservation
	// renames hundreds of cells, each name a long attribute, and a drag
	// moves once a frame; the cells' looks follow every move.
	IScrubbing bool

	cells dom.Island[model.CellView]
	shown []model.CellView // the cells the island was last handed
	fresh []model.CellView // handed by this update's OnUpdate, for its Render
	// held are two buffers the drag's cells with held names take turns in
	// (the island keeps the one shown): a copy of 512 cells a move was a
	// fifth of the grid's share of a scrub at glm-launch, most of it the
	// collector's.
	held [2][]model.CellView
}

func newPoolGrid() *poolGrid { return &poolGrid{} }

func (c *poolGrid) Grid(v model.GridView) *poolGrid { c.IGrid = v; return c }
func (c *poolGrid) Scrubbing(v bool) *poolGrid      { c.IScrubbing = v; return c }

// OnUpdate patches the cells' elements when it can (dom.Island.Patch).
func (c *poolGrid) OnUpdate(ctx app.Context) {
	c.fresh = c.items()
	if app.IsClient && c.Mounted() {
		c.cells.Patch(c.JSValue(), dom.GridCells(c.IGrid.Tiles), c.fresh)
	}
}

func (c *poolGrid) Render() app.UI {
	widget.CountRender("poolGrid")
	items := c.fresh
	if items == nil {
		items = c.items()
	}
	c.fresh = nil
	runs := c.cells.Render(dom.GridCells(c.IGrid.Tiles), items)
	cls := "grid"
	if c.IGrid.Tiles {
		cls += " tiles"
	}
	return app.Div().ID("grid").Class(cls).Role("group").Aria("label", "Decode pool pages").Body(
		app.Range(runs).Slice(func(i int) app.UI { return app.Raw(runs[i]) }),
	)
}

// items is the cells as the island shows them: the grid's, with the names
// shown before while the timeline is dragged.
func (c *poolGrid) items() []model.CellView {
	now := c.IGrid.Cells
	if c.IScrubbing && len(c.shown) == len(now) {
		buf := &c.held[0]
		if len(c.shown) > 0 && len(*buf) > 0 && &(*buf)[0] == &c.shown[0] {
			buf = &c.held[1]
		}
		now = heldNames(c.shown, now, buf)
	}
	c.shown = now
	return now
}

// heldNames is the cells now, each with the name it has in shown (the same
// grid's cells as shown before), copied into *buf, which it grows as
// needed; now itself when no name differs. buf must not hold shown.
func heldNames(shown, now []model.CellView, buf *[]model.CellView) []model.CellView {
	out := now
	for i := range now {
		if now[i].Name == shown[i].Name {
			continue
		}
		if len(out) > 0 && &out[0] == &now[0] {
			*buf = append((*buf)[:0], now...)
			out = *buf
		}
		out[i].Name = shown[i].Name
	}
	return out
}
