package challenge

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// panel is the open challenge: its goal, its rules, what the check says of
// the run on screen, the hints the reader's tries have earned and, once
// solved, what it shows, the winning run's link and the next challenge.
// The page's status region announces a solve (the response panel).
type panel struct {
	app.Compo

	IChallenge model.ChallengeView

	returnTo app.Value // what had the focus before the panel opened

	onOpen    func(ctx app.Context, n int)
	onAnswer  func(ctx app.Context, answer string)
	onRestart func(ctx app.Context)
	onClose   func(ctx app.Context)
}

func NewPanel() *panel { return &panel{} }

func (c *panel) Challenge(v model.ChallengeView) *panel       { c.IChallenge = v; return c }
func (c *panel) OnOpen(fn func(app.Context, int)) *panel      { c.onOpen = fn; return c }
func (c *panel) OnAnswer(fn func(app.Context, string)) *panel { c.onAnswer = fn; return c }
func (c *panel) OnRestart(fn func(app.Context)) *panel        { c.onRestart = fn; return c }
func (c *panel) OnClose(fn func(app.Context)) *panel          { c.onClose = fn; return c }

func (c *panel) OnMount(ctx app.Context) { c.returnTo = dom.ActiveElement() }

// OnDismount gives the focus back where it was when the panel opened, or
// to the request form, when Close took the button that had it away.
func (c *panel) OnDismount() { dom.FocusBack(c.returnTo, model.Tenant.ID()) }

func (c *panel) Render() app.UI {
	widget.CountRender("challengePanel")
	v := c.IChallenge
	n := strconv.Itoa(v.N)
	status, tone := "Not solved yet: "+v.Status, "open"
	switch {
	case v.RunSolves:
		status, tone = "✓ Solved by this run. "+v.Status, "solved"
	case v.Solved:
		status = "✓ You solved this before; this run does not: " + v.Status
	}
	return app.Section().ID("challenge").Class("panel challenge").Aria("labelledby", "challenge-h").
		DataSet("n", v.N).DataSet("solved", widget.BoolText(v.Solved)).DataSet("run-solves", widget.BoolText(v.RunSolves)).Body(
		app.P().Class("hint").Text("Capture the flag · challenge "+n+" of "+strconv.Itoa(v.Of)),
		app.H2().ID("challenge-h").Text(v.Title),
		app.P().ID("challenge-goal").Class("challenge-goal").Text(v.Goal),
		app.P().Class("hint").Text(v.Rules),
		app.If(v.Question != "", func() app.UI {
			return newAnswer().Question(v.Question).Answer(v.Answer).OnAnswer(c.onAnswer)
		}),
		app.P().ID("challenge-status").Class("challenge-status").DataSet("tone", tone).Text(status),
		app.If(v.Fair != "", func() app.UI { return app.P().ID("challenge-fair").Class("challenge-fair").Text(v.Fair) }),
		app.If(v.Lesson != "", func() app.UI { return app.P().ID("challenge-lesson").Text(v.Lesson) }),
		app.If(v.Link != "", func() app.UI {
			return app.P().Class("challenge-link").Body(
				app.Text("The winning run: "),
				app.A().ID("challenge-link").Href("?"+v.Link).Text("its permalink"),
			)
		}),
		newHints().Hints(v.Hints).In(v.HintIn),
		app.Div().Class("row wrap challenge-nav").Body(
			app.If(v.Solved && v.Next > 0, func() app.UI {
				return app.Button().ID("challenge-next").Type("button").Class("primary").DataSet("n", v.Next).
					Text("Next: challenge " + strconv.Itoa(v.Next) + " →").OnClick(widget.Safe(c.onNext))
			}),
			app.Button().ID("challenge-restart").Type("button").Class("secondary").Text("Start over").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onRestart(ctx) })),
			app.Button().ID("challenge-close").Type("button").Class("link").Text("Close the challenge").
				OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onClose(ctx) })),
		),
	)
}

// onNext opens the next challenge and takes the focus to its heading: the
// button that had it goes until that one is solved.
func (c *panel) onNext(ctx app.Context, e app.Event) {
	c.onOpen(ctx, c.IChallenge.Next)
	ctx.Defer(func(app.Context) { dom.JumpTo("challenge-h") })
}
