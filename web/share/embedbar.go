package share

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/widget"
)

// embedBar is the embed's two controls: which door, and replay the run
// step by step.
type embedBar struct {
	app.Compo

	IMode    engine.Mode
	IPlaying bool
	ISteps   int

	onMode func(ctx app.Context, m engine.Mode)
	onPlay func(ctx app.Context)
}

func NewEmbedBar() *embedBar { return &embedBar{} }

func (c *embedBar) Mode(v engine.Mode) *embedBar                       { c.IMode = v; return c }
func (c *embedBar) Playing(v bool) *embedBar                           { c.IPlaying = v; return c }
func (c *embedBar) Steps(n int) *embedBar                              { c.ISteps = n; return c }
func (c *embedBar) OnMode(fn func(app.Context, engine.Mode)) *embedBar { c.onMode = fn; return c }
func (c *embedBar) OnPlay(fn func(app.Context)) *embedBar              { c.onPlay = fn; return c }

func (c *embedBar) Render() app.UI {
	widget.CountRender("embedBar")
	door := func(m engine.Mode, id, label string) app.UI {
		return app.Button().ID(id).Type("button").Class("secondary").Aria("pressed", c.IMode == m).Text(label).
			OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onMode(ctx, m) }))
	}
	replay := "▶ Replay"
	if c.IPlaying {
		replay = "Pause"
	}
	return app.Div().ID("embed-bar").Class("row wrap embed-bar").Role("group").Aria("label", "Door and replay").Body(
		door(engine.Vulnerable, "embed-vulnerable", "Vulnerable door"),
		door(engine.Fixed, "embed-fixed", "Fixed door (the article's patch)"),
		widget.Button("embed-replay", replay, c.ISteps < 2).Class("primary").Aria("pressed", c.IPlaying).
			OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onPlay(ctx) })),
	)
}
