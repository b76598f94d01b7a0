package web

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderPool shows the pool at the selected step as a grid, or as a table
// for readers who prefer one.
func (p *playground) renderPool() app.UI {
	s := p.s
	g, err := p.views.gridFor(s, p.gridCells())
	if err != nil {
		return app.P().Class("field-error").Text(err.Error())
	}
	caption := "the latest step"
	if s.step > 0 {
		caption = fmt.Sprintf("step %d (pages it touched are outlined)", s.step)
	}
	view, toggle := p.renderGrid(g), "Show as a table"
	if p.table {
		view, toggle = p.renderTable(g), "Show as a grid"
	}
	compare := "Compare vulnerable and fixed"
	if p.compare {
		compare = "Hide the comparison"
	}
	return app.Section().Class("panel").Aria("labelledby", "pool-h").Body(
		app.H2().ID("pool-h").Text("KV pool"),
		app.Div().Class("row wrap").Body(
			app.Button().ID("table-toggle").Type("button").Class("secondary").Aria("pressed", p.table).Text(toggle).OnClick(p.onTable),
			app.Button().ID("compare-toggle").Type("button").Class("secondary").Aria("pressed", p.compare).Text(compare).OnClick(p.onCompare),
		),
		app.P().Class("hint").Body(
			app.Text(g.Summary+". Showing the pool after "+caption+". "),
			app.If(g.Zoomed, func() app.UI {
				return app.Button().ID("zoom-out").Type("button").Class("link").Text("Show the whole pool").OnClick(p.onZoomOut)
			}),
		),
		view,
	)
}

// renderTable is the grid's cells as rows, for screen readers and keyboards.
func (p *playground) renderTable(g gridView) app.UI {
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
				app.Th().Scope("row").Text(c.Page), app.Td().Text(state), app.Td().Text(orDefault(c.Owner, "—")), app.Td().Text(c.Label),
			)
		})),
	)
}

func cellClass(c cellView) string {
	cls := "cell state-" + string(c.State)
	if c.Tenant >= 0 {
		cls += " tenant-" + strconv.Itoa(c.Tenant%8)
	}
	if c.Touched {
		cls += " touched"
	}
	return cls
}

func (p *playground) onTable(ctx app.Context, e app.Event) { p.table = !p.table }

// gridCells is how many cells the grid may draw: fewer on a phone, where
// 512 cells would be a long scroll of mostly free pages.
func (p *playground) gridCells() int {
	if p.narrow {
		return maxGridCellsNarrow
	}
	return maxGridCells
}
