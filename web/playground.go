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

	s        *session
	ready    bool
	detail   string // description of the focused or hovered grid cell
	hovered  string // the cell under the pointer as last described (page and label)
	focus    int    // the grid cell in the tab order
	narrow   bool   // a phone-sized viewport: a smaller grid
	banner   string // why a link or file was refused
	embed    bool   // compact view for iframes
	readOnly bool   // embed without controls
	compare  bool   // side-by-side engines
	table    bool   // the pool as a table instead of a grid
	playing  bool
	share    shareState
	views    viewCache
	stopKeys func()
	stopSize func()
}

// narrowWidth is the viewport width (CSS px) below which the grid draws
// maxGridCellsNarrow cells.
const narrowWidth = 560

func newPlayground() *playground { return &playground{s: newSession()} }

// OnMount marks the page as running in wasm: until then the prerendered
// HTML is on screen and the controls do nothing.
func (p *playground) OnMount(ctx app.Context) {
	p.ready = true
	p.narrow = app.Window().Get("innerWidth").Int() < narrowWidth
	p.stopKeys = listenKeys(ctx, p.onKey)
}

func (p *playground) OnDismount() {
	for _, stop := range []func(){p.stopKeys, p.stopSize} {
		if stop != nil {
			stop()
		}
	}
}

func (p *playground) Render() app.UI {
	ready := "false"
	if p.ready {
		ready = "true"
	}
	cls := "page"
	if p.embed {
		cls += " embed"
	}
	return app.Main().ID("playground").Class(cls).DataSet("ready", ready).Body(
		app.If(!p.embed, p.renderIntro).Else(p.renderCaption),
		app.If(p.banner != "", func() app.UI {
			return app.Div().ID("banner").Class("banner").Role("alert").Body(
				app.Strong().Text("This link could not be opened. "),
				app.Text(p.banner+" The default scenario is shown instead."),
				app.Button().Type("button").Class("link").Text("Dismiss").OnClick(p.onDismissBanner),
			)
		}),
		app.Div().Class("layout").Body(
			app.If(!p.readOnly, func() app.UI {
				return app.Div().Class("col-controls").Body(
					p.renderControls(),
					p.renderRequestForm(),
					app.If(!p.embed, p.renderShare),
				)
			}),
			app.Div().Class("col-results").Body(
				p.renderResponse(),
				p.renderStepper(),
				app.If(p.compare, p.renderCompare),
				p.renderPool(),
				p.renderLingering(),
				p.renderMetrics(),
				p.renderLog(),
			),
		),
	)
}

// lastResponse is the newest response visible at the selected step.
func (p *playground) lastResponse() (engine.Response, bool) {
	return p.views.snapshotFor(p.s).LastResponse()
}

func (p *playground) onDismissBanner(ctx app.Context, e app.Event) { p.banner = "" }
