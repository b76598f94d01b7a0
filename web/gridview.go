package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func (p *playground) cell(c cellView) app.UI {
	cls := cellClass(c)
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
			p.sync(ctx)
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
