package run

import (
	"html"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// responsePanel shows the newest response at the selected step: status,
// verdict and a body whose every part names the page and tenant it came
// from. The verdict is also announced through a status region.
type responsePanel struct {
	app.Compo

	IResponse model.ResponseView

	transcript bool // show the body as the article's demo printed it
}

func NewResponsePanel() *responsePanel { return &responsePanel{} }

func (c *responsePanel) Response(v model.ResponseView) *responsePanel { c.IResponse = v; return c }

func (c *responsePanel) Render() app.UI {
	widget.CountRender("responsePanel")
	r := c.IResponse
	return app.Section().Class("panel response").Aria("labelledby", "response-h").Body(
		// Focusable from script: the line under Send leads here (sendresult.go).
		app.Raw(`<h2 id="response-h" tabindex="-1">Last response</h2>`),
		app.P().Class("status-line").Body(
			app.Span().Text("HTTP "),
			app.Output().ID("status").Class("status").Text(r.Status),
			app.If(r.Sent, func() app.UI { return app.Span().Class("status-who").Text(r.Who) }),
		),
		VerdictLine(r),
		app.If(r.Router != "", func() app.UI { return app.P().ID("router-note").Class("hint").Text(r.Router) }),
		app.Div().ID("announce").Class("visually-hidden").Role("status").Aria("live", "polite").Text(r.Announce),
		app.If(r.Reason != "", func() app.UI {
			return app.P().Class("reason").Body(app.Text("Error body: "), app.Raw(`<code>`+html.EscapeString(r.Reason)+`</code>`))
		}),
		app.Ol().ID("response").Class("body").Aria("label", "Response body, by page").Body(
			app.Range(r.Body).Slice(func(i int) app.UI { return segmentItem(r.Body[i]) }),
		),
		app.If(r.Sent, func() app.UI {
			label := "Show it as the article printed it"
			if c.transcript {
				label = "Hide the article's transcript"
			}
			toggle := app.Button().ID("transcript-toggle").Type("button").Class("link").Aria("expanded", c.transcript).
				Text(label).OnClick(widget.Safe(c.onTranscript))
			if c.transcript { // aria-controls must name an element that exists
				toggle = toggle.Aria("controls", "transcript")
			}
			return app.Div().Class("transcript").Body(
				toggle,
				app.If(c.transcript, func() app.UI {
					return app.Raw(`<figure><pre id="transcript">` + "\n" + html.EscapeString(strings.Join(r.Transcript, "\n")) +
						`</pre><figcaption class="hint">In the words of the article's demo script; the engine computed every line.</figcaption></figure>`)
				}),
			)
		}),
	)
}

// VerdictLine is the response's verdict, marked by its tone.
func VerdictLine(r model.ResponseView) app.UI {
	cls := "verdict"
	if r.Tone != "" {
		cls += " verdict-" + r.Tone
	}
	return app.P().ID("verdict").Class(cls).Text(r.Verdict)
}

func (c *responsePanel) onTranscript(ctx app.Context, e app.Event) { c.transcript = !c.transcript }

func segmentItem(s model.SegmentView) app.UI {
	cls := "seg"
	if s.Leaked {
		cls += " seg-leaked"
	}
	return app.Li().Class(cls).Body(
		app.Span().Class("seg-pages").Text(s.Pages),
		app.Span().Class("seg-who").Text(s.Who),
		app.If(s.Leaked, func() app.UI {
			return app.Raw(`<strong class="seg-flag">` + html.EscapeString("⚠ LEAKED") + `</strong>`)
		}),
		app.Raw(`<code class="seg-text">`+html.EscapeString(s.Text)+`</code>`),
	)
}
