package run

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// sendResult is the line under the request form's buttons that says what
// the run came to at the step on screen — after a Send, or after a change
// of the settings replayed the run — where the reader acted, with a way to
// the response. It is not a live region: the response panel's #announce
// says it once.
type sendResult struct {
	app.Compo

	IResponse model.ResponseView
}

func NewSendResult() *sendResult { return &sendResult{} }

func (c *sendResult) Response(v model.ResponseView) *sendResult { c.IResponse = v; return c }

func (c *sendResult) Render() app.UI {
	widget.CountRender("sendResult")
	r := c.IResponse
	if !r.Sent {
		return app.P().ID("send-result").Class("send-result hint").Text("No request sent yet: Send shows its outcome here.")
	}
	return app.P().ID("send-result").Class("send-result tone-"+r.Tone).Body(
		app.Raw(`<strong>`+html.EscapeString("HTTP "+r.Status)+`</strong>`), app.Text(r.Who+": "+r.Verdict+" "),
		app.Button().Type("button").Class("link").Text("Show the response").OnClick(widget.Safe(c.onShow)),
	)
}

// onShow leads to the response: its heading, so that a screen reader
// goes on from there.
func (c *sendResult) onShow(ctx app.Context, e app.Event) { dom.JumpTo("response-h") }
