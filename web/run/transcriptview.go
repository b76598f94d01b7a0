package run

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// transcriptView is the response as the article's demo script printed it,
// alone: an embed's view=transcript.
type transcriptView struct {
	app.Compo

	IResponse model.ResponseView
}

func NewTranscriptView() *transcriptView { return &transcriptView{} }

func (c *transcriptView) Response(v model.ResponseView) *transcriptView { c.IResponse = v; return c }

func (c *transcriptView) Render() app.UI {
	widget.CountRender("transcriptView")
	text := "No request sent yet."
	if c.IResponse.Sent {
		text = strings.Join(c.IResponse.Transcript, "\n")
	}
	return app.Section().Class("panel transcript").Aria("labelledby", "transcript-h").Body(
		app.Raw(`<h2 id="transcript-h">The response, as the article's demo printed it</h2>`),
		app.Pre().ID("transcript").Text(text),
		app.P().ID("verdict").Class("hint").Text(c.IResponse.Verdict),
	)
}
