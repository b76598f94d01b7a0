package tour

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/widget"
)

// intro says what happened and ties the article's three questions to what
// the reader can try here, opens the guided tour and leads to the share
// panel. It has no inputs: it renders once.
type intro struct {
	app.Compo

	onTour func(ctx app.Context)
}

func NewIntro() *intro { return &intro{} }

// OnTour opens the guided tour.
func (c *intro) OnTour(fn func(app.Context)) *intro { c.onTour = fn; return c }

func (c *intro) Render() app.UI {
	widget.CountRender("intro")
	return app.Header().Class("intro").Body(
		// The fixed text as raw markup: it costs the wasm a fraction of
		// go-app's element calls (docs/performance.md).
		app.Raw(`<h1>KV-cache leak playground</h1>`),
		app.Raw(`<p>Between 27 August and 9 September 2026, 155 responses from GLM-5.3 carried another tenant's data, every one with HTTP 200. `+
			`An over-length request was marked rejected, but the admission queue only checked “finished”: `+
			`it went on through prefill and decode, and decode read seven stale pages of another tenant's KV cache. `+
			`This page runs a simulation of that engine — SGLang's prefill/decode mode — in your browser.</p>`),
		app.Raw(`<ul class="questions">`+
			`<li><strong>Does the door check every terminal state? </strong>Flip the admission mode to “fixed” and watch the same request get a 400.</li>`+
			`<li><strong>Is the context backed by the pool? </strong>Pick “GLM-5.3 at launch” and read the capacity check.</li>`+
			`<li><strong>Does anything assume freed pages are clean? </strong>Turn on scrub-on-free: the leak stops, the wrong 200 does not.</li></ul>`),
		app.P().Class("intro-actions").Body(
			app.Button().ID("take-tour").Type("button").Class("primary").Text("Take the tour").
				Title("Eight short cards: the article's argument on the live engine").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onTour(ctx) })),
			app.Button().ID("share-jump").Type("button").Class("secondary").Text("Share / Embed").
				Aria("controls", "share").OnClick(widget.Safe(c.onShare)),
		),
	)
}

// onShare leads to the share panel.
func (c *intro) onShare(ctx app.Context, e app.Event) { dom.JumpTo("share-h") }
