package web

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The rendered log is bounded; older events stay in the engine.
const (
	maxLogRows = 300 // at most this many rows are listed
	logBlock   = 100 // events per block of the list (joinLogBlock)
)

// renderLog lists the engine's events; selecting one shows the pool after
// it and outlines the pages it touched.
func (p *playground) renderLog() app.UI {
	evs := p.s.eng.Events()
	from := logWindowStart(len(evs))
	blocks := p.views.logBlocksFor(p.s)
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
		app.Div().Class("log-wrap").OnClick(p.onLogClick).Body(
			app.Div().ID("log").Class("log").Body(
				app.Range(blocks).Slice(func(i int) app.UI { return app.Raw(blocks[i]) }),
			),
		),
	)
}

func reqLabel(id int, tenant string) string {
	if id == 0 {
		return ""
	}
	return "r" + strconv.Itoa(id) + " · " + tenant
}

// onStep shows the pool after the row's step (0: the latest).
func (p *playground) onStep(ctx app.Context, e app.Event) {
	p.playing = false
	if p.s.selectStep(dataInt(ctx, "step")) == nil {
		p.sync(ctx)
	}
}

// onLogClick selects the clicked row's step.
func (p *playground) onLogClick(ctx app.Context, e app.Event) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return
	}
	row := target.Call("closest", "#log .log-btn")
	if !row.Truthy() {
		return
	}
	step, _ := strconv.Atoi(row.Get("dataset").Get("step").String())
	p.playing = false
	if p.s.selectStep(step) == nil {
		p.sync(ctx)
	}
}
