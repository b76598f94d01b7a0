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
	// Fixed markup, raw: it costs the wasm a fraction of go-app's element
	// calls (docs/performance.md). The links are to other sites: no path
	// for go-app to resolve.
	return app.Raw(sourcesHTML)
}

// newTabLink is a link to another site that opens in a new tab, and says so.
func newTabLink(href, text string) string {
	return `<a href="` + href + `" target="_blank" rel="noopener">` + text + `<span class="visually-hidden"> (opens a new tab)</span><span aria-hidden="true"> ↗</span></a>`
}

var sourcesHTML = `<footer id="sources" class="sources"><p>Sources: ` +
	newTabLink(model.IssueURL, "SGLang issue #30233") + `, decode attending over KV that prefill never wrote; ` +
	newTabLink(model.FixURL, "SGLang pull request #38704") + `, the fix as the article names it (open in SGLang's tracker); ` +
	newTabLink(model.RetireURL, "SGLang pull request #36988") + `, merged on 29 August 2026, which retires an aborted prefill result; ` +
	newTabLink(model.UpstreamFixURL, "SGLang pull request #38935") + `, the per-server door fix SGLang merged on 15 September 2026; ` +
	`Cloudflare's postmortem of 26 October 2026, “Cross-request KV cache exposure in the GLM-5.3 Workers AI model, and our remediation with SGLang”.</p></footer>`
