package web

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// tour is the guided tour's card: the article's argument on the demo's
// live run, one step at a time. Each card moves the run to its step and
// the page highlights the panel it talks about (page.go: data-tour-spot).
// Focus moves into the card when it opens and back when it closes; → and ←
// page through it, Esc closes it; its text is announced.
type tour struct {
	app.Compo

	ITour model.TourView

	returnTo app.Value // what had the focus before the tour opened
	stopKeys func()

	onTo    func(ctx app.Context, card int)
	onClose func(ctx app.Context)
	onFix   func(ctx app.Context, fix tourFix)
}

// tourFix is one of the last card's fixes.
type tourFix int

const (
	fixDoor tourFix = iota // flip the door to the patched one
	fixPool                // raise the pool until B's prompt fits
)

func newTour() *tour { return &tour{} }

func (c *tour) Tour(v model.TourView) *tour               { c.ITour = v; return c }
func (c *tour) OnTo(fn func(app.Context, int)) *tour      { c.onTo = fn; return c }
func (c *tour) OnClose(fn func(app.Context)) *tour        { c.onClose = fn; return c }
func (c *tour) OnFix(fn func(app.Context, tourFix)) *tour { c.onFix = fn; return c }

func (c *tour) OnMount(ctx app.Context) {
	c.returnTo = app.Window().Get("document").Get("activeElement")
	c.stopKeys = listenKeys(ctx, []string{"ArrowRight", "ArrowLeft", "Escape"}, c.onKey)
	ctx.Defer(func(app.Context) { c.focusCard() })
}

// OnUpdate keeps the focus in the card when a button it was on goes away
// (Back is disabled on the first card) and brings the highlighted panel
// into view.
func (c *tour) OnUpdate(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		doc := app.Window().Get("document")
		if a := doc.Get("activeElement"); !a.Truthy() || a.Get("tagName").String() == "BODY" {
			c.focusCard()
		}
		if spot := doc.Call("querySelector", spotSelector[c.ITour.Card.Spot]); spot.Truthy() {
			behavior := "smooth"
			if reducedMotion() {
				behavior = "auto"
			}
			spot.Call("scrollIntoView", map[string]any{"block": "nearest", "behavior": behavior})
		}
	})
}

func (c *tour) OnDismount() {
	if c.stopKeys != nil {
		c.stopKeys()
	}
	back := c.returnTo
	if back == nil || !back.Truthy() || !back.Get("isConnected").Bool() || back.Get("tagName").String() == "BODY" {
		back = app.Window().GetElementByID("take-tour")
	}
	if back.Truthy() {
		back.Call("focus")
	}
}

// spotSelector is the panel each card's spot names.
var spotSelector = map[string]string{"pipeline": "#pipeline-panel", "pool": "#pool-panel", "response": ".response"}

func (c *tour) focusCard() {
	if el := app.Window().GetElementByID("tour"); el.Truthy() {
		el.Call("focus", map[string]any{"preventScroll": true})
	}
}

func (c *tour) Render() app.UI {
	countRender("tour")
	v := c.ITour
	next := "Next →"
	if v.N == v.Of {
		next = "Finish"
	}
	return app.Section().ID("tour").Class("tour").Role("region").TabIndex(-1).
		Aria("labelledby", "tour-h").Aria("roledescription", "guided tour").Body(
		app.P().ID("tour-pos").Class("hint").Text("Tour · card "+strconv.Itoa(v.N)+" of "+strconv.Itoa(v.Of)+" · step "+strconv.Itoa(v.Card.Step)),
		app.H2().ID("tour-h").Text(v.Card.Title),
		app.P().ID("tour-text").Aria("live", "polite").Text(v.Card.Text),
		app.If(v.Card.Fix, func() app.UI {
			return app.Div().Class("row wrap").Body(
				app.Button().ID("tour-fix-door").Type("button").Class("primary").Text("Flip the door to fixed").
					OnClick(safe(func(ctx app.Context, e app.Event) { c.onFix(ctx, fixDoor) })),
				app.Button().ID("tour-fix-pool").Type("button").Class("secondary").Text("Raise the pool until B fits").
					OnClick(safe(func(ctx app.Context, e app.Event) { c.onFix(ctx, fixPool) })),
			)
		}),
		app.Div().Class("row tour-nav").Body(
			button("tour-prev", "← Back", v.N <= 1).Class("secondary").Aria("keyshortcuts", "ArrowLeft").
				OnClick(safe(func(ctx app.Context, e app.Event) { c.step(ctx, -1) })),
			app.Button().ID("tour-next").Type("button").Class("primary").Text(next).Aria("keyshortcuts", "ArrowRight").
				OnClick(safe(func(ctx app.Context, e app.Event) { c.step(ctx, 1) })),
			app.Button().ID("tour-close").Type("button").Class("link").Text("Close the tour").Aria("keyshortcuts", "Escape").
				OnClick(safe(func(ctx app.Context, e app.Event) { c.onClose(ctx) })),
		),
	)
}

// step moves d cards; past the last card the tour ends.
func (c *tour) step(ctx app.Context, d int) {
	switch n := c.ITour.N + d; {
	case n > c.ITour.Of:
		c.onClose(ctx)
	case n >= 1:
		c.onTo(ctx, n)
	}
}

func (c *tour) onKey(ctx app.Context, key string) {
	switch key {
	case "ArrowRight":
		c.step(ctx, 1)
	case "ArrowLeft":
		c.step(ctx, -1)
	case "Escape":
		c.onClose(ctx)
	}
}
