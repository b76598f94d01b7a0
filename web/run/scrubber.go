package run

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// scrubber is a range slider over every step of the log, with a mark where
// each request starts and where it ends. Dragging it moves the pipeline,
// the pool and the response with it.
type scrubber struct {
	app.Compo

	IStep  int // the step on screen
	IOf    int
	IMarks []model.PlacedMark

	onSelect func(ctx app.Context, step int)
	onDone   func(ctx app.Context) // the slider's change: a drag ended, or a key or a click moved it
}

func NewScrubber() *scrubber { return &scrubber{} }

func (c *scrubber) Step(v int) *scrubber                         { c.IStep = v; return c }
func (c *scrubber) Of(v int) *scrubber                           { c.IOf = v; return c }
func (c *scrubber) Marks(v []model.PlacedMark) *scrubber         { c.IMarks = v; return c }
func (c *scrubber) OnSelect(fn func(app.Context, int)) *scrubber { c.onSelect = fn; return c }
func (c *scrubber) OnDone(fn func(app.Context)) *scrubber        { c.onDone = fn; return c }

func (c *scrubber) Render() app.UI {
	widget.CountRender("scrubber")
	if c.IOf == 0 {
		return app.Div().ID("step-timeline").Class("scrub").Body(
			widget.Label("scrubber", "Timeline"),
			app.Input().Type("range").ID("scrubber").Min(0).Max(0).Value("0").Disabled(true),
			app.P().Class("hint").Text("Send a request to see its way through the engine."),
		)
	}
	return app.Div().ID("step-timeline").Class("scrub").Body(
		widget.Label("scrubber", "Timeline: step "+strconv.Itoa(c.IStep)+" of "+strconv.Itoa(c.IOf)),
		app.Input().Type("range").ID("scrubber").Min(1).Max(c.IOf).Step(1).Value(strconv.Itoa(c.IStep)).
			Aria("valuetext", "step "+strconv.Itoa(c.IStep)+" of "+strconv.Itoa(c.IOf)).
			OnInput(widget.Safe(c.onInput)).OnChange(widget.Safe(c.onChange)),
		newScrubMarks().Marks(c.IMarks),
	)
}

// OnUpdate puts the thumb on IStep once the render has set the slider's
// max: go-app sets an element's attributes in a map's order, and a value
// set while the old max held was clamped to it (after about one Send in
// five the thumb stood a request behind the step on screen).
func (c *scrubber) OnUpdate(ctx app.Context) {
	step := strconv.Itoa(c.IStep)
	ctx.Defer(func(app.Context) { dom.SyncValue(c.JSValue(), "#scrubber", step) })
}

// onChange: the browser fires change once a drag ends (input at every
// move), and with input for a key or a click on the track.
func (c *scrubber) onChange(ctx app.Context, e app.Event) {
	if c.onDone != nil {
		c.onDone(ctx)
	}
}

func (c *scrubber) onInput(ctx app.Context, e app.Event) {
	if step, err := strconv.Atoi(dom.Value(ctx)); err == nil {
		c.onSelect(ctx, step)
	}
}
