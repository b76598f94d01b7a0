package run

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/widget"
)

// Keyboard shortcuts of the step-through controls. Plain keys that browsers
// leave alone; ignored while typing in a field or with a modifier held.
const (
	keyBack = ","
	keyNext = "."
	keyPlay = "p"
)

// stepper steps through the event log, by buttons and by its shortcuts.
type stepper struct {
	app.Compo

	IStep    int // the step on screen
	IOf      int // the log's length
	IPlaying bool

	stopKeys func()
	onStepBy func(ctx app.Context, d int)
	onPlay   func(ctx app.Context)
}

func NewStepper() *stepper { return &stepper{} }

func (c *stepper) Step(v int) *stepper                         { c.IStep = v; return c }
func (c *stepper) Of(v int) *stepper                           { c.IOf = v; return c }
func (c *stepper) Playing(v bool) *stepper                     { c.IPlaying = v; return c }
func (c *stepper) OnStepBy(fn func(app.Context, int)) *stepper { c.onStepBy = fn; return c }
func (c *stepper) OnPlay(fn func(app.Context)) *stepper        { c.onPlay = fn; return c }

func (c *stepper) OnMount(ctx app.Context) {
	c.stopKeys = dom.ListenKeys(ctx, []string{keyBack, keyNext, keyPlay}, widget.SafeKey(c.onKey))
}

func (c *stepper) OnDismount() {
	if c.stopKeys != nil {
		c.stopKeys()
	}
}

func (c *stepper) Render() app.UI {
	widget.CountRender("stepper")
	play, playLabel := "Play", "Play the log from this step ("+keyPlay+")"
	if c.IPlaying {
		play, playLabel = "Pause", "Pause ("+keyPlay+")"
	}
	return app.Div().ID("stepper").Class("stepper").Role("group").Aria("label", "Step through the event log").Body(
		widget.Button("step-back", "◀ Back", c.IStep <= 1).Class("secondary").
			Title("Step back ("+keyBack+")").Aria("keyshortcuts", keyBack).OnClick(widget.Safe(c.onBack)),
		widget.Button("play", play, c.IOf < 2).Class("secondary").
			Title(playLabel).Aria("keyshortcuts", keyPlay).Aria("pressed", c.IPlaying).OnClick(widget.Safe(c.onPlayClick)),
		widget.Button("step-next", "Next ▶", c.IStep >= c.IOf).Class("secondary").
			Title("Step forward ("+keyNext+")").Aria("keyshortcuts", keyNext).OnClick(widget.Safe(c.onNext)),
		app.Span().ID("step-pos").Class("hint").Text(fmt.Sprintf("Step %d of %d", c.IStep, c.IOf)),
	)
}

func (c *stepper) onBack(ctx app.Context, e app.Event)      { c.onStepBy(ctx, -1) }
func (c *stepper) onNext(ctx app.Context, e app.Event)      { c.onStepBy(ctx, 1) }
func (c *stepper) onPlayClick(ctx app.Context, e app.Event) { c.onPlay(ctx) }

// onKey answers the shortcuts as the buttons would, including when one is
// disabled: a key then does nothing.
func (c *stepper) onKey(ctx app.Context, key string) {
	switch {
	case key == keyBack && c.IStep > 1:
		c.onStepBy(ctx, -1)
	case key == keyNext && c.IStep < c.IOf:
		c.onStepBy(ctx, 1)
	case key == keyPlay && c.IOf >= 2:
		c.onPlay(ctx)
	}
}
