package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// playground is the page a reader opens next to the postmortem.
// TEMPORARY minimal body while the engine lands; replaced by the real UI.
type playground struct {
	app.Compo
}

func newPlayground() *playground { return &playground{} }

func (p *playground) Render() app.UI {
	return app.Main().ID("playground").Body(
		app.H1().Text("KV-cache leak playground"),
		app.Button().ID("send").Text("Send"),
		app.Output().ID("status").Text(""),
	)
}
