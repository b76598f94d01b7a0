package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// metricRow is one labelled counter.
type metricRow struct{ Key, Label, Value string }

// metricRows lists the engine's counters in reading order.
func metricRows(m engine.Metrics) []metricRow {
	n := func(v int) string { return engine.Thousands(int64(v)) }
	return []metricRow{
		{"responses", "Responses", n(m.Responses)},
		{"leaked-responses", "Leaked responses", n(m.LeakedResponses)},
		{"leaked-pages", "Leaked pages", n(m.LeakedPages)},
		{"wrong-status", "200s for rejected requests", n(m.WrongStatus)},
		{"finished", "Finished", n(m.Finished)},
		{"rejected", "Rejected", n(m.Rejected)},
		{"aborted", "Aborted", n(m.Aborted)},
		{"errored", "Errored", n(m.Errored)},
		{"pages-allocated", "Pages allocated", n(m.PagesAllocated)},
		{"pages-free", "Pages free", n(m.PagesFree)},
		{"pages-stale", "Pages stale", n(m.PagesStale)},
		{"pages-lingering", "Pages lingering", n(m.PagesLingering)},
		{"scrub-writes", "Scrub writes", n(m.ScrubWrites)},
		{"scrub-bytes", "Scrub bytes", engine.Thousands(m.ScrubBytes)},
		{"deferred-drained", "Deferred release: drained", n(m.DeferredRelease[engine.OutcomeDrained])},
		{"deferred-timeout", "Deferred release: timeout", n(m.DeferredRelease[engine.OutcomeTimeout])},
		{"deferred-error", "Deferred release: error", n(m.DeferredRelease[engine.OutcomeError])},
	}
}

// renderMetrics shows the counters and the capacity check.
func (p *playground) renderMetrics() app.UI {
	c := p.s.cfg.Capacity()
	cls := "capacity"
	if !c.Backed {
		cls += " capacity-short"
	}
	rows := metricRows(p.s.eng.Metrics())
	return app.Section().Class("panel").Aria("labelledby", "metrics-h").Body(
		app.H2().ID("metrics-h").Text("Metrics"),
		app.P().ID("capacity").Class(cls).Text("Capacity check: "+c.String()),
		app.Dl().ID("metrics").Class("metrics").Body(
			app.Range(rows).Slice(func(i int) app.UI {
				return app.Div().DataSet("metric", rows[i].Key).Body(
					app.Dt().Text(rows[i].Label), app.Dd().Text(rows[i].Value),
				)
			}),
		),
	)
}
