package experiments

import (
	"html"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// metricsPanel shows the capacity check and the engine's counters.
type metricsPanel struct {
	app.Compo

	IMetrics model.MetricsView
}

func NewMetricsPanel() *metricsPanel { return &metricsPanel{} }

func (c *metricsPanel) Metrics(v model.MetricsView) *metricsPanel { c.IMetrics = v; return c }

func (c *metricsPanel) Render() app.UI {
	widget.CountRender("metricsPanel")
	m := c.IMetrics
	cls := "capacity"
	if m.Short {
		cls += " capacity-short"
	}
	return widget.Section("metrics-panel", "", "metrics-h", "Metrics",
		app.P().ID("capacity").Class(cls).Text(m.Capacity),
		app.Raw(metricsMarkup(m.Rows)),
	)
}

// metricsMarkup is the counters as raw markup (escaped): go-app's list,
// term and description elements cost the wasm their code for this list
// alone (docs/performance.md).
func metricsMarkup(rows []model.MetricRow) string {
	var b strings.Builder
	b.WriteString(`<dl id="metrics" class="metrics">`)
	for _, r := range rows {
		b.WriteString(`<div data-metric="` + html.EscapeString(r.Key) + `"><dt>` + html.EscapeString(r.Label) + `</dt><dd>` + html.EscapeString(r.Value) + `</dd></div>`)
	}
	b.WriteString(`</dl>`)
	return b.String()
}
