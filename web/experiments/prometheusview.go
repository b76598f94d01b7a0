package experiments

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/widget"
)

// prometheusView is the metrics as an operator's scrape reads them, in
// Prometheus' text exposition format, with a Copy button.
type prometheusView struct {
	app.Compo

	IText string

	status string
}

func NewPrometheusView() *prometheusView { return &prometheusView{} }

func (c *prometheusView) Text(v string) *prometheusView { c.IText = v; return c }

func (c *prometheusView) Render() app.UI {
	widget.CountRender("prometheusView")
	return widget.Section("prometheus-panel", "", "prometheus-h", "Metrics as Prometheus scrapes them",
		app.P().Class("hint").Text("sglang:decode_deferred_kv_release_total is SGLang's own metric; the kvleak_ counters are the playground's. The lines are long: scroll the text sideways, or copy it."),
		app.Pre().ID("prometheus").Class("prometheus").TabIndex(0).Aria("label", "Metrics in Prometheus text format").Text(c.IText),
		widget.Button("copy-prometheus", "Copy", false).OnClick(widget.Safe(c.onCopy)),
		app.P().ID("prometheus-status").Role("status").Text(c.status),
	)
}

func (c *prometheusView) onCopy(ctx app.Context, e app.Event) {
	dom.CopyText(ctx, c.IText, func() { c.status = "Metrics copied to the clipboard." })
}
