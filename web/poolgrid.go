package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// poolGrid is the grid's cells as raw elements (gridhtml.go). As its
// own component it renders only when its cells change, not when the
// details line above it or the focused cell does.
type poolGrid struct {
	app.Compo

	IGrid model.GridView

	runs gridRunCache // the runs last rendered
}

func newPoolGrid() *poolGrid { return &poolGrid{} }

func (c *poolGrid) Grid(v model.GridView) *poolGrid { c.IGrid = v; return c }

func (c *poolGrid) Render() app.UI {
	countRender("poolGrid")
	runs := c.runs.render(c.IGrid)
	cls := "grid"
	if c.IGrid.Tiles {
		cls += " tiles"
	}
	return app.Div().ID("grid").Class(cls).Role("group").Aria("label", "KV pool pages").Body(
		app.Range(runs).Slice(func(i int) app.UI { return app.Raw(runs[i]) }),
	)
}
