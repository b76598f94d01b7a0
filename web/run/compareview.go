package run

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// compareView runs the same requests through both doors and shows them
// next to each other, with the difference in words.
type compareView struct {
	app.Compo

	IComparison model.CompareView
	IErr        string
}

func NewCompareView() *compareView { return &compareView{} }

func (c *compareView) Comparison(v model.CompareView) *compareView { c.IComparison = v; return c }
func (c *compareView) Err(v string) *compareView                   { c.IErr = v; return c }

func (c *compareView) Render() app.UI {
	widget.CountRender("compareView")
	if c.IErr != "" {
		return app.P().Class("field-error").Text(c.IErr)
	}
	v := c.IComparison
	return app.Section().ID("compare").Class("panel").Aria("labelledby", "compare-h").Body(
		app.Raw(`<h2 id="compare-h">Side by side: the same requests, both doors</h2>`),
		app.P().ID("difference").Class("difference").Text(v.Difference),
		// The minis below are hidden from screen readers (their words are
		// in each side's lines), and so is their legend.
		app.Raw(`<ul class="legend" aria-hidden="true">`+dom.CellLegend+`</ul>`),
		app.Div().Class("sides").Body(side(v.Sides[0]), side(v.Sides[1])),
	)
}

func side(s model.SideView) app.UI {
	cells := make([]app.UI, len(s.Grid.Cells))
	for i, c := range s.Grid.Cells {
		cells[i] = app.Span().Class(dom.CellClass(c)).DataSet("page", c.Page).DataSet("owner", c.Owner).
			DataSet("state", string(c.State)).Title(c.Label).Text(c.Mark)
	}
	return app.Div().Class("side").DataSet("mode", s.Mode).Body(
		app.Raw(`<h3>`+html.EscapeString(s.Title)+`</h3>`),
		app.P().Class("status-line").Body(app.Text("HTTP "), app.Raw(`<strong class="side-status">`+html.EscapeString(s.Status)+`</strong>`)),
		app.P().Class("side-verdict").Text(s.Verdict),
		app.P().Class("hint").Text(s.Totals),
		app.Div().Class("grid grid-mini").Aria("hidden", "true").Body(cells...),
	)
}
