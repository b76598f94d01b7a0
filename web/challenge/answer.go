package challenge

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// answer is a "prove it cannot be done" challenge's question and the
// reader's answer, one button per answer (model.Answers), the chosen one
// pressed.
type answer struct {
	app.Compo

	IQuestion string
	IAnswer   string

	onAnswer func(ctx app.Context, answer string)
}

func newAnswer() *answer { return &answer{} }

func (c *answer) Question(q string) *answer                     { c.IQuestion = q; return c }
func (c *answer) Answer(a string) *answer                       { c.IAnswer = a; return c }
func (c *answer) OnAnswer(fn func(app.Context, string)) *answer { c.onAnswer = fn; return c }

func (c *answer) Render() app.UI {
	widget.CountRender("challengeAnswer")
	btns := []app.UI{app.Legend().Text(c.IQuestion)}
	for _, o := range model.Answers {
		btns = append(btns, app.Button().Type("button").Class("secondary").ID("challenge-answer-"+o.Value).
			DataSet("answer", o.Value).Aria("pressed", o.Value == c.IAnswer).Text(o.Label).OnClick(widget.Safe(c.onClick)))
	}
	return app.FieldSet().ID("challenge-question").Class("challenge-question row wrap").Body(btns...)
}

// onClick reads the answer from the button (dom.Data).
func (c *answer) onClick(ctx app.Context, e app.Event) { c.onAnswer(ctx, dom.Data(ctx, "answer")) }
