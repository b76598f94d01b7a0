package tour

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// sources is the page's footer: the public records the playground
// reproduces, each opening in a new tab. It has no inputs: it renders once.
type sources struct {
	app.Compo
}

func NewSources() *sources { return &sources{} }

func (c *sources) Render() app.UI {
	widget.CountRender("sources")
	return app.Footer().ID("sources").Class("sources").Body(
		app.P().Body(
			app.Text("Sources: "),
			newTabLink(model.IssueURL, "SGLang issue #30233"), app.Text(", decode attending over KV that prefill never wrote; "),
			newTabLink(model.FixURL, "SGLang pull request #38704"), app.Text(", the fix as the article names it (open in SGLang's tracker); "),
			newTabLink(model.RetireURL, "SGLang pull request #36988"), app.Text(", merged on 29 August 2026, which retires an aborted prefill result; "),
			newTabLink(model.UpstreamFixURL, "SGLang pull request #38935"), app.Text(", the per-server door fix SGLang merged on 15 September 2026; "),
			app.Text("Cloudflare's postmortem of 26 October 2026, “Cross-request KV cache exposure in the GLM-5.3 Workers AI model, and our remediation with SGLang”."),
		),
	)
}

// newTabLink is a link to another site that opens in a new tab, and says so.
func newTabLink(href, text string) app.UI {
	return app.A().Href(href).Target("_blank").Rel("noopener").Body(
		app.Text(text), app.Span().Class("visually-hidden").Text(" (opens a new tab)"), app.Span().Aria("hidden", "true").Text(" ↗"),
	)
}
