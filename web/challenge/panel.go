package challenge

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// Panel is the open challenge (#challenge, markup.go): its goal, its
// rules, the question of a "prove it cannot be done" challenge, what the
// check says of the run on screen, the hints the reader's tries have
// earned and, once solved, what it shows, the winning run's link and the
// next challenge. The page's status region announces a solve (the
// response panel). What the reader asks goes up to onAction: a
// model.Challenge… action and its value (model.Session.ChallengeAction).
//
// Panel and List are functions, not components: they keep no state, and
// one handler each reads what a click asks from the button (dom.Clicked).
// The markup is new after a change, so the focus goes back to the button
// clicked, or on to the next challenge's heading, or, on Close, to the
// request form.
func Panel(v model.ChallengeView, onAction func(ctx app.Context, act, val string)) app.UI {
	return app.Div().Class("slot").Body(app.Raw(panelMarkup(v))).OnClick(widget.Safe(func(ctx app.Context, e app.Event) {
		act, val, id := dom.Clicked(e)
		if act == "" {
			return
		}
		if act == model.ChallengeClose { // now: the panel goes, and work deferred from its handler with it
			dom.JumpTo(model.Tenant.ID())
		}
		onAction(ctx, act, val)
		ctx.Defer(func(app.Context) {
			switch {
			case act == model.ChallengeOpen:
				dom.JumpTo("challenge-h")
			case dom.FocusLost():
				dom.FocusID(id)
			}
		})
	}))
}

// List is the ladder (#challenges, markup.go), folded under the settings:
// each challenge, whether the reader solved it in this browser, and a way
// to open it, which goes up to onAction and takes the reader to its panel.
func List(l model.ChallengeList, onAction func(ctx app.Context, act, val string)) app.UI {
	return app.Div().Class("slot").Body(app.Raw(listMarkup(l))).OnClick(widget.Safe(func(ctx app.Context, e app.Event) {
		if act, val, _ := dom.Clicked(e); act == model.ChallengeOpen {
			onAction(ctx, act, val)
			ctx.Defer(func(app.Context) { dom.JumpTo("challenge-h") })
		}
	}))
}
