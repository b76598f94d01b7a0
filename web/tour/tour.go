package tour

import (
	"html"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// tour is the guided tour's card: the article's argument on the demo's
// live run, one step at a time. Each card moves the run to its step and
// the page highlights the part it talks about (web/page.go: data-tour-spot),
// scrolled beside or above the card. The card says the step the stepper
// says; it says when the reader stepped away from the card's step, and
// what a card undid of the reader's own run. Focus moves into the card
// when it opens and back when it closes; → and ← page through it, Esc
// closes it; its text is announced.
type tour struct {
	app.Compo

	ITour model.TourView

	returnTo app.Value // what had the focus before the tour opened
	stopKeys func()
	shown    int // the card whose part of the page was last scrolled to

	onTo    func(ctx app.Context, card int)
	onClose func(ctx app.Context)
	onFix   func(ctx app.Context, fix TourFix)
	onStep  func(ctx app.Context, step int)
}

// TourFix is one of the last card's fixes.
type TourFix int

const (
	FixDoor TourFix = iota // flip the door to the patched one
	fixPool                // raise the pool until B's prompt fits
)

func NewTour() *tour { return &tour{} }

func (c *tour) Tour(v model.TourView) *tour               { c.ITour = v; return c }
func (c *tour) OnTo(fn func(app.Context, int)) *tour      { c.onTo = fn; return c }
func (c *tour) OnClose(fn func(app.Context)) *tour        { c.onClose = fn; return c }
func (c *tour) OnFix(fn func(app.Context, TourFix)) *tour { c.onFix = fn; return c }

// OnStep moves the run to a step (back to the card's own).
func (c *tour) OnStep(fn func(app.Context, int)) *tour { c.onStep = fn; return c }

func (c *tour) OnMount(ctx app.Context) {
	c.returnTo = dom.ActiveElement()
	c.stopKeys = dom.ListenKeys(ctx, []string{"ArrowRight", "ArrowLeft", "Escape"}, widget.SafeKey(c.onKey))
	ctx.Defer(func(app.Context) {
		c.focusCard()
		c.showSpot()
	})
}

// OnUpdate keeps the focus in the card when a button it was on goes away
// (Back is disabled on the first card) and, on a new card, brings the
// part of the page it talks about into view. A step taken while the card
// stays leaves the page where the reader has it.
func (c *tour) OnUpdate(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		if dom.FocusLost() {
			c.focusCard()
		}
		if c.ITour.N != c.shown {
			c.showSpot()
		}
	})
}

// spotSelectors are the part each spot outlines (app.css: data-tour-spot),
// on a wide screen and, where it differs, on a phone: there the card takes
// the bottom of the screen, so a card talks about a smaller part.
var spotSelectors = map[string][2]string{
	model.SpotPool:     {"#pool-panel", "#grid"},
	model.SpotIntake:   {"#pipeline-panel", "#pipeline-intake-row"},
	model.SpotDoor:     {"#pipeline-panel", "#pipeline-door-row"},
	model.SpotResponse: {".response", ".response"},
	model.SpotVerdict:  {".response", "#verdict"},
}

// SpotSelectors are the part of the page a spot outlines on a wide screen
// and on a phone (NarrowLayout), for the page's script that shows the tour
// before the engine runs (internal/sitegen/early.js), which scrolls to them
// as showSpot does.
func SpotSelectors(spot string) (wide, narrow string) {
	s := spotSelectors[spot]
	return s[0], s[1]
}

// NarrowLayout is app.css's breakpoint where the columns stack and the
// tour's card sits at the bottom of the screen.
const NarrowLayout = "(max-width: 760px)"

// showSpot scrolls the card's part of the page so that all of it is on
// screen and not under the card: beside the card on a wide screen (the
// card stands in the settings' column), above it on a phone
// (dom.ScrollBeside).
func (c *tour) showSpot() {
	c.shown = c.ITour.N
	sels, narrow := spotSelectors[c.ITour.Card.Spot], 0
	if dom.Matches(NarrowLayout) {
		narrow = 1
	}
	dom.ScrollBeside(sels[narrow], "tour")
}

func (c *tour) OnDismount() {
	if c.stopKeys != nil {
		c.stopKeys()
	}
	dom.FocusBack(c.returnTo, "take-tour")
}

func (c *tour) focusCard() { dom.FocusID("tour") }

func (c *tour) Render() app.UI {
	widget.CountRender("tour")
	v := c.ITour
	next := "Next →"
	if v.N == v.Of {
		next = "Finish"
	}
	return app.Section().ID("tour").Class("tour").Role("region").TabIndex(-1).
		Aria("labelledby", "tour-h").Aria("roledescription", "guided tour").Body(
		// Texts that are no live region as raw markup (escaped): it costs the
		// wasm a fraction of go-app's element calls (docs/performance.md).
		app.Raw(`<p id="tour-pos" class="hint">Tour · card `+strconv.Itoa(v.N)+` of `+strconv.Itoa(v.Of)+` · step `+strconv.Itoa(v.Step)+` of `+strconv.Itoa(v.Steps)+`</p>`),
		app.Raw(`<h2 id="tour-h">`+html.EscapeString(v.Card.Title)+`</h2>`),
		app.If(v.Reset != "", func() app.UI {
			return app.P().ID("tour-reset").Class("tour-note").Role("status").Text(v.Reset)
		}),
		app.P().ID("tour-text").Aria("live", "polite").Text(v.Card.Text),
		app.If(v.Away, func() app.UI {
			return app.P().ID("tour-away").Class("tour-note").Body(
				app.Text("You are at step "+strconv.Itoa(v.Step)+"; this card is about step "+strconv.Itoa(v.Card.Step)+". "),
				app.Button().Type("button").Class("link").Text("Back to step "+strconv.Itoa(v.Card.Step)).
					OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onStep(ctx, c.ITour.Card.Step) })),
			)
		}),
		app.If(v.Changed, func() app.UI {
			return app.Raw(`<p id="tour-changed" class="tour-note">This is your own run now: moving to another card puts the article's demo back.</p>`)
		}),
		app.If(v.Card.Fix, func() app.UI {
			return app.Div().Class("row wrap").Body(
				app.Button().ID("tour-fix-door").Type("button").Class("primary").Text("Flip the door to fixed").
					OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onFix(ctx, FixDoor) })),
				app.Button().ID("tour-fix-pool").Type("button").Class("secondary").Text("Raise the pool until B fits").
					OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onFix(ctx, fixPool) })),
			)
		}),
		app.Div().Class("row tour-nav").Body(
			widget.Button("tour-prev", "← Back", v.N <= 1).Class("secondary").Aria("keyshortcuts", "ArrowLeft").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.step(ctx, -1) })),
			app.Button().ID("tour-next").Type("button").Class("primary").Text(next).Aria("keyshortcuts", "ArrowRight").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.step(ctx, 1) })),
			app.Button().ID("tour-close").Type("button").Class("link").Text("Close the tour").Aria("keyshortcuts", "Escape").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onClose(ctx) })),
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
