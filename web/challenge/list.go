package challenge

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// list is the ladder: each challenge, whether the reader solved it in this
// browser, and a way to open it.
type list struct {
	app.Compo

	IList model.ChallengeList

	onOpen func(ctx app.Context, n int)
}

func NewList() *list { return &list{} }

func (c *list) Challenges(l model.ChallengeList) *list { c.IList = l; return c }
func (c *list) OnOpen(fn func(app.Context, int)) *list { c.onOpen = fn; return c }

func (c *list) Render() app.UI {
	widget.CountRender("challengeList")
	l := c.IList
	return app.Div().ID("challenges").Class("challenges").DataSet("solved-count", l.Solved).Body(
		app.P().Text("Tenant A holds a flag; you, as another tenant, try to read it through the engine, then meet each defence in turn. "+
			"A challenge is solved by what the run did, however you got there; your progress stays in this browser."),
		app.P().ID("challenges-solved").Class("hint").Text("Solved "+strconv.Itoa(l.Solved)+" of "+strconv.Itoa(len(l.Items))+"."),
		app.Ol().Class("challenge-list").Body(app.Range(l.Items).Slice(func(i int) app.UI {
			it := l.Items[i]
			b := app.Button().Type("button").Class("link").DataSet("n", it.N).Text(it.Title).OnClick(widget.Safe(c.onClick))
			if it.N == l.Open {
				b = b.Aria("current", "true")
			}
			return app.Li().DataSet("n", it.N).DataSet("solved", widget.BoolText(it.Solved)).Body(
				b, app.If(it.Solved, func() app.UI { return app.Span().Class("challenge-done").Text(" ✓ solved") }),
			)
		})),
	)
}

// onClick reads the challenge from the button (dom.DataInt), opens it and
// takes the reader to it: the panel stands beside the request form, far
// above the list.
func (c *list) onClick(ctx app.Context, e app.Event) {
	c.onOpen(ctx, dom.DataInt(ctx, "n"))
	ctx.Defer(func(app.Context) { dom.JumpTo("challenge-h") })
}
