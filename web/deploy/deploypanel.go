package deploy

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/deploycheck"
	"kvleak/web/dom"
	"kvleak/web/widget"
)

// deployPanel checks a real SGLang deployment: the reader pastes what each
// server of a prefill/decode pair reports and gets the verdict and a link
// that replays it here (deploycheck.CheckReport, on the engine's limits). It has no inputs: the pasted text is its own,
// read from the boxes when Check is pressed and kept nowhere, and the
// replay is an ordinary link, opened as any permalink is (web/nav.go).
// What leaves it is the pair's numbers (deploycheck.ServerSettings), handed up
// to the page after each check for the Replay panel.
type deployPanel struct {
	app.Compo

	view      deploycheck.Report
	checked   bool
	onChecked func(app.Context, *deploycheck.ServerSettings)
}

func NewDeployPanel() *deployPanel { return &deployPanel{} }

// OnChecked is called after each check with the pair's settings, nil when
// the check refused the boxes or the pair.
func (c *deployPanel) OnChecked(f func(app.Context, *deploycheck.ServerSettings)) *deployPanel {
	c.onChecked = f
	return c
}

// The boxes' ids; the check reads them by id.
const (
	deployPrefillID = "deploy-prefill"
	deployDecodeID  = "deploy-decode"
)

var deployVerdictClass = map[deploycheck.Status]string{
	deploycheck.Exposed:    "verdict verdict-leak",
	deploycheck.Patched:    "verdict verdict-ok",
	deploycheck.NotExposed: "verdict verdict-ok",
}

func (c *deployPanel) Render() app.UI {
	widget.CountRender("deployPanel")
	v := c.view
	return widget.Section("deploy", "deploy", "deploy-h", "Check your deployment",
		app.P().Class("hint").Text("Paste what each server of your prefill/decode pair answers at GET /server_info (or /get_server_info), the command that launches it (python -m sglang.launch_server …), or its Kubernetes command and args lists. The check reads each server's limits as it reports them (or as the engine derives them), the window between them, and whether its release carries the fix for its transfer backend."),
		app.P().ID("deploy-private").Class("hint").Text("Nothing you paste leaves this page: the check runs in your browser, and the replay link carries only numbers."),
		app.Div().Class("row wrap deploy-boxes").Body(
			c.box(deployPrefillID, "Prefill server", "prefill"),
			c.box(deployDecodeID, "Decode server", "decode"),
		),
		widget.Button("deploy-check", "Check", false).OnClick(widget.Safe(c.onCheck)),
		app.Div().ID("deploy-verdict").Role("status").Aria("live", "polite").Body(
			app.If(c.checked, func() app.UI { return c.verdict(v) }),
		),
	)
}

// box is one server's text area, marked invalid when the check refused it.
func (c *deployPanel) box(id, label, role string) app.UI {
	invalid := c.checked && c.view.Status == "" && (c.view.Box == role || c.view.Box == "")
	return app.Div().Class("field").Body(
		widget.Label(id, label),
		app.Textarea().ID(id).Rows(8).Placeholder("The JSON of its GET /server_info, its launch command, or its args list").Spellcheck(false).Attr("autocomplete", "off").
			Aria("describedby", "deploy-private").Aria("invalid", invalid),
	)
}

// verdict shows the check's lines as text: they quote pasted values.
func (c *deployPanel) verdict(v deploycheck.Report) app.UI {
	if v.Status == "" {
		return app.P().Class("field-error").Text(v.Lines[0])
	}
	rest := v.Lines[1:]
	return app.Div().Body(
		app.P().Class(deployVerdictClass[v.Status]).DataSet("status", v.Status).Text(v.Lines[0]),
		app.Ul().Class("deploy-lines").Body(app.Range(rest).Slice(func(i int) app.UI {
			return app.Li().Text(rest[i])
		})),
		app.If(v.Link != "", func() app.UI {
			return app.P().Body(app.A().ID("deploy-replay").Href("/?"+v.Link).Text("Replay it here"), app.Text(": "+v.LinkNote))
		}).Else(func() app.UI {
			return app.P().Class("hint").Text(v.LinkNote)
		}),
	)
}

func (c *deployPanel) onCheck(ctx app.Context, e app.Event) {
	c.view, c.checked = deploycheck.CheckReport(dom.ValueOf(deployPrefillID), dom.ValueOf(deployDecodeID)), true
	if c.onChecked != nil {
		c.onChecked(ctx, c.view.Settings)
	}
}
