package pool

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolTable is the grid's cells as rows, for screen readers and keyboards.
func poolTable(g model.GridView) app.UI {
	return app.Table().ID("pool-table").Class("pool-table").Body(
		app.Caption().Text("KV pool pages: state, owner and provenance"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("Pages"), app.Th().Scope("col").Text("State"),
			app.Th().Scope("col").Text("Owner"), app.Th().Scope("col").Text("Details"),
		)),
		app.TBody().Body(app.Range(g.Cells).Slice(func(i int) app.UI {
			c := g.Cells[i]
			state := string(c.State)
			if c.State == engine.PageLeaked {
				state = "⚠ LEAKED"
			}
			return app.Tr().DataSet("page", c.Page).DataSet("owner", c.Owner).DataSet("state", string(c.State)).Body(
				app.Th().Scope("row").Text(c.ID), app.Td().Text(state), app.Td().Text(widget.OrDefault(c.Owner, "—")), app.Td().Text(c.Label),
			)
		})),
	)
}
