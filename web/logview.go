package web

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// maxLogRows bounds the rendered log; older events stay in the engine.
const maxLogRows = 300

// renderLog lists the engine's events; selecting one shows the pool after
// it and outlines the pages it touched.
func (p *playground) renderLog() app.UI {
	evs := p.s.eng.Events()
	from := max(0, len(evs)-maxLogRows)
	shown := evs[from:]
	return app.Section().Class("panel").Aria("labelledby", "log-h").Body(
		app.H2().ID("log-h").Text("Event log"),
		app.P().Class("hint").Body(
			app.Text(fmt.Sprintf("%d events. Select one to see the pool at that step. ", len(evs))),
			app.If(p.s.step > 0, func() app.UI {
				return app.Button().ID("log-latest").Type("button").Class("link").DataSet("step", 0).Text("Back to the latest step").OnClick(p.onStep)
			}),
			app.If(from > 0, func() app.UI {
				return app.Text(fmt.Sprintf("(the first %d are not listed)", from))
			}),
		),
		app.Ol().ID("log").Class("log").Body(
			app.Range(shown).Slice(func(i int) app.UI {
				ev := shown[i]
				cls := "log-row half-" + string(ev.Half)
				selected := p.s.step == ev.Step
				if selected {
					cls += " selected"
				}
				return app.Li().Class(cls).DataSet("step", ev.Step).DataSet("stage", string(ev.Stage)).Body(
					app.Button().Type("button").Class("log-btn").DataSet("step", ev.Step).Aria("pressed", selected).OnClick(p.onStep).Body(
						app.Span().Class("log-step").Text(fmt.Sprintf("%d", ev.Step)),
						app.Span().Class("log-req").Text(reqLabel(ev.Request, ev.Tenant)),
						app.Code().Class("log-stage").Text(string(ev.Stage)),
						app.Span().Class("log-text").Text(ev.Text),
					),
				)
			}),
		),
	)
}

func reqLabel(id int, tenant string) string {
	if id == 0 {
		return ""
	}
	return fmt.Sprintf("r%d · %s", id, tenant)
}

// onStep shows the pool after the row's step (0: the latest).
func (p *playground) onStep(ctx app.Context, e app.Event) {
	p.playing = false
	if p.s.selectStep(dataInt(ctx, "step")) == nil {
		p.sync(ctx)
	}
}
