package experiments

import (
	"fmt"
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// launchPanel is the launch tests: a suite run against the configured
// engine, whose requests join the run, each test graded by the engine.
type launchPanel struct {
	app.Compo

	ILaunch model.LaunchView

	onRun    func(ctx app.Context)
	onSelect func(ctx app.Context, step int)
}

func NewLaunchPanel() *launchPanel { return &launchPanel{} }

func (c *launchPanel) Launch(v model.LaunchView) *launchPanel { c.ILaunch = v; return c }

func (c *launchPanel) OnRun(fn func(app.Context)) *launchPanel { c.onRun = fn; return c }

// OnSelect shows a test's request in the log.
func (c *launchPanel) OnSelect(fn func(app.Context, int)) *launchPanel { c.onSelect = fn; return c }

var resultText = map[string]string{"pass": "PASS", "fail": "FAIL", "not run": "not run"}

func (c *launchPanel) Render() app.UI {
	widget.CountRender("launchPanel")
	v := c.ILaunch
	return widget.Section("launch", "launch", "launch-h", "Launch tests",
		app.P().Class("hint").Text("Is the advertised context window backed, and is the output correct? The suite sends its requests to the engine configured above; they join the run like any other, and a link replays them."),
		widget.Button("run-launch", "Run the launch tests", false).OnClick(widget.Safe(c.onRunClick)),
		app.P().ID("launch-summary").Role("status").Text(v.Summary),
		app.Ol().Class("launch-tests").Body(app.Range(v.Tests).Slice(func(i int) app.UI {
			t := v.Tests[i]
			reqs := []app.UI{}
			for _, r := range t.Requests {
				reqs = append(reqs, app.Button().Type("button").Class("secondary").DataSet("step", r.Step).
					Text(fmt.Sprintf("Show r%d in the log", r.ID)).OnClick(widget.Safe(c.onShow)))
			}
			return app.Li().DataSet("test", t.ID).DataSet("result", t.Result).Body(
				app.P().Body(app.Raw(`<strong>`+html.EscapeString(t.Name)+`</strong>`), app.Text(" — "), app.Span().Class("result").Text(resultText[t.Result])),
				app.P().Class("hint").Text(t.What),
				app.P().Class("detail").Text(t.Detail),
				app.If(len(reqs) > 0, func() app.UI { return app.Div().Class("launch-requests").Body(reqs...) }),
			)
		})),
	)
}

func (c *launchPanel) onRunClick(ctx app.Context, e app.Event) { c.onRun(ctx) }

func (c *launchPanel) onShow(ctx app.Context, e app.Event) { c.onSelect(ctx, dom.DataInt(ctx, "step")) }
