package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// playground is the page a reader opens next to the postmortem. It owns a
// session and turns its state into elements; every number comes from the
// engine through it.
type playground struct {
	app.Compo

	s      *session
	ready  bool
	detail string // description of the focused or hovered grid cell
}

func newPlayground() *playground { return &playground{s: newSession()} }

// OnMount marks the page as running in wasm: until then the prerendered
// HTML is on screen and the controls do nothing.
func (p *playground) OnMount(ctx app.Context) {
	p.ready = true
}

func (p *playground) Render() app.UI {
	ready := "false"
	if p.ready {
		ready = "true"
	}
	return app.Main().ID("playground").DataSet("ready", ready).Body(
		p.renderIntro(),
		app.Div().Class("layout").Body(
			app.Div().Class("col-controls").Body(
				p.renderControls(),
				p.renderRequestForm(),
			),
			app.Div().Class("col-results").Body(
				p.renderResponse(),
				p.renderGrid(),
				p.renderLingering(),
				p.renderMetrics(),
				p.renderLog(),
			),
		),
	)
}

// value reads the value of the element that fired an event.
func value(ctx app.Context) string { return ctx.JSSrc().Get("value").String() }

// lastResponse is the newest response visible at the selected step.
func (p *playground) lastResponse() (engine.Response, bool) {
	return p.s.snapshot().LastResponse()
}
