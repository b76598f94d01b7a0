package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
)

// prometheusView is the metrics as an operator's scrape reads them, in
// Prometheus' text exposition format, with a Copy button.
type prometheusView struct {
	app.Compo

	IText string

	status string
}

func newPrometheusView() *prometheusView { return &prometheusView{} }

func (c *prometheusView) Text(v string) *prometheusView { c.IText = v; return c }

func (c *prometheusView) Render() app.UI {
	countRender("prometheusView")
	return app.Section().ID("prometheus-panel").Class("panel").Aria("labelledby", "prometheus-h").Body(
		app.H2().ID("prometheus-h").Text("Metrics as Prometheus scrapes them"),
		app.P().Class("hint").Text("sglang:decode_deferred_kv_release_total is SGLang's own metric; the kvleak_ counters are the playground's. The lines are long: scroll the text sideways, or copy it."),
		app.Pre().ID("prometheus").Class("prometheus").TabIndex(0).Aria("label", "Metrics in Prometheus text format").Text(c.IText),
		button("copy-prometheus", "Copy", false).OnClick(safe(c.onCopy)),
		app.P().ID("prometheus-status").Role("status").Text(c.status),
	)
}

func (c *prometheusView) onCopy(ctx app.Context, e app.Event) {
	dom.CopyText(ctx, c.IText, func() { c.status = "Metrics copied to the clipboard." })
}
