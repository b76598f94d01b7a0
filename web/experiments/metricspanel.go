package experiments

import (
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
		app.Dl().ID("metrics").Class("metrics").Body(
			app.Range(m.Rows).Slice(func(i int) app.UI {
				return app.Div().DataSet("metric", m.Rows[i].Key).Body(
					app.Dt().Text(m.Rows[i].Label), app.Dd().Text(m.Rows[i].Value),
				)
			}),
		),
	)
}
