package web

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// renderGrid draws the pool: one cell per page, or per range of pages when
// the pool is large, each marked by colour, pattern and text.
func (p *playground) renderGrid() app.UI {
	s := p.s
	snap := s.snapshot()
	var touched engine.Pages
	if s.step > 0 {
		touched = s.eng.Events()[s.step-1].Pages
	}
	g, err := buildGrid(snap, s.tenants, s.zoomFirst, s.zoomLast, touched)
	if err != nil {
		return app.P().Class("field-error").Text(err.Error())
	}
	caption := "the latest step"
	if s.step > 0 {
		caption = fmt.Sprintf("step %d (pages it touched are outlined)", s.step)
	}
	return app.Section().Class("panel").Aria("labelledby", "pool-h").Body(
		app.H2().ID("pool-h").Text("KV pool"),
		app.P().Class("hint").Body(
			app.Text(g.Summary+". Showing the pool after "+caption+". "),
			app.If(g.Zoomed, func() app.UI {
				return app.Button().ID("zoom-out").Type("button").Class("link").Text("Show the whole pool").OnClick(p.onZoomOut)
			}),
		),
		legend(),
		app.Div().ID("grid").Class("grid").Role("group").Aria("label", "KV pool pages").Body(
			app.Range(g.Cells).Slice(func(i int) app.UI { return p.cell(g.Cells[i]) }),
		),
		app.P().ID("cell-details").Class("cell-details").Text(orDefault(p.detail, "Hover over or focus a cell for its details.")),
	)
}

func (p *playground) cell(c cellView) app.UI {
	cls := "cell state-" + string(c.State)
	if c.Tenant >= 0 {
		cls += " tenant-" + strconv.Itoa(c.Tenant%8)
	}
	if c.Touched {
		cls += " touched"
	}
	label := c.Label
	if c.First != c.Last {
		label += ". Select to zoom in."
	}
	return app.Button().Type("button").Class(cls).
		DataSet("page", c.Page).DataSet("owner", c.Owner).DataSet("state", string(c.State)).
		Aria("label", label).Title(label).
		OnClick(p.onCell(c)).OnFocus(p.onDetail(label)).OnMouseEnter(p.onDetail(label)).
		Text(c.Mark)
}

func legend() app.UI {
	item := func(state, mark, text string) app.UI {
		return app.Li().Body(app.Span().Class("cell legend-cell state-"+state).Aria("hidden", "true").Text(mark), app.Text(" "+text))
	}
	return app.Ul().Class("legend").Aria("label", "Legend").Body(
		item("free", "·", "free"),
		item("allocated", "A", "allocated (letter: tenant)"),
		item("stale", "A", "free but stale: still holds a tenant's KV"),
		item("leaked", "A!", "LEAKED into the last response"),
	)
}

func (p *playground) onCell(c cellView) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if c.First != c.Last {
			p.s.zoom(c.First, c.Last)
			p.detail = ""
		}
	}
}

func (p *playground) onDetail(label string) app.EventHandler {
	return func(ctx app.Context, e app.Event) { p.detail = label }
}

func (p *playground) onZoomOut(ctx app.Context, e app.Event) {
	p.s.zoom(0, p.s.cfg.PoolPages()-1)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
