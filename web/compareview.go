package web

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderCompare runs the same requests through both doors and shows them
// next to each other, with the difference in words.
func (p *playground) renderCompare() app.UI {
	c, grids, err := p.views.compareFor(p.s)
	if err != nil {
		return app.P().Class("field-error").Text(err.Error())
	}
	return app.Section().ID("compare").Class("panel").Aria("labelledby", "compare-h").Body(
		app.H2().ID("compare-h").Text("Side by side: the same requests, both doors"),
		app.P().ID("difference").Class("difference").Text(c.Difference),
		app.Div().Class("sides").Body(
			side("vulnerable door (pre-patch)", c.Vulnerable, grids[0]),
			side("fixed door (SGLang #38704)", c.Fixed, grids[1]),
		),
	)
}

func side(title string, s engine.Side, g gridView) app.UI {
	status, verdict := "—", "No request yet."
	if s.Last != nil {
		status, verdict = strconv.Itoa(s.Last.Status), s.Last.Verdict()
	}
	cells := make([]app.UI, len(g.Cells))
	for i, c := range g.Cells {
		cells[i] = app.Span().Class(cellClass(c)).DataSet("page", c.Page).DataSet("owner", c.Owner).
			DataSet("state", string(c.State)).Title(c.Label).Text(c.Mark)
	}
	return app.Div().Class("side").DataSet("mode", string(s.Mode)).Body(
		app.H3().Text(title),
		app.P().Class("status-line").Body(app.Text("HTTP "), app.Strong().Class("side-status").Text(status)),
		app.P().Class("side-verdict").Text(verdict),
		app.P().Class("hint").Text("Over the run: "+engine.Thousands(int64(s.Metrics.LeakedPages))+" leaked pages in "+
			engine.Thousands(int64(s.Metrics.LeakedResponses))+" responses."),
		app.Div().Class("grid grid-mini").Aria("hidden", "true").Body(cells...),
	)
}

func (p *playground) onCompare(ctx app.Context, e app.Event) {
	p.compare = !p.compare
	p.sync(ctx)
}
