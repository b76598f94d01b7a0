package share

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/widget"
)

// caption heads the compact embed view with the scenario's name and a way
// out to the full playground.
type caption struct {
	app.Compo

	IName string // the scenario's name
	IHref string // the full playground's link to the same run
}

func NewCaption() *caption { return &caption{} }

func (c *caption) Name(v string) *caption { c.IName = v; return c }
func (c *caption) Href(v string) *caption { c.IHref = v; return c }

func (c *caption) Render() app.UI {
	widget.CountRender("caption")
	return app.Header().Class("caption").Body(
		app.P().Body(
			app.Raw(`<strong>`+html.EscapeString("KV-cache leak playground — "+c.IName+". ")+`</strong>`),
			app.A().ID("open-full").Href(c.IHref).Target("_blank").Rel("noopener").
				Text("Open in the full playground ↗"),
		),
	)
}
