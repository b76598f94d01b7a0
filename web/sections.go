package web

import (
	"html"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/deploy"
	"kvleak/web/experiments"
	"kvleak/web/model"
	"kvleak/web/replaypanel"
	"kvleak/web/run"
	"kvleak/web/settings"
	"kvleak/web/share"
	"kvleak/web/tour"
	"kvleak/web/widget"
)

// jumps are the links at the top of the page: the bench's two halves, then
// the sections below it in their order (sections). Each names the id of
// what it leads to; a section is a folding panel (widget.Section).
var jumps = []struct{ id, label string }{
	{"bench", "The run"},
	{"settings", "Engine settings"},
	{"ctf", "Capture the flag"}, // under the settings (ladder.go)
	{"door-section", "Door checklist"},
	{"gateway-section", "Gateway"},
	{"launch", "Launch tests"},
	{"metrics-panel", "Metrics"},
	{"prometheus-panel", "Prometheus"},
	{"log-panel", "Event log"},
	{"deploy", "Deploy check"},
	{"replay", "Replay a log"},
	{"export-trace", "Trace export"}, // in the share section, beside Export JSON
	{"share", "Share and embed"},
	{"timeline", "Timeline"},
}

// jumpNav is the page's table of contents: a link to each part, followed
// without go-app's navigation (dom.FollowJumpLinks), so the address bar
// keeps the run's link. It is raw markup because go-app resolves an
// element's href against the site's prefix: under a sub-path "#bench"
// would become "/kvleak#bench", a link that leaves the page. The ids and
// labels are this file's own constants.
func jumpNav() app.UI {
	var b strings.Builder
	b.WriteString(`<nav id="jump" class="jump" aria-label="On this page"><ul>`)
	for _, j := range jumps {
		b.WriteString(`<li><a href="#` + html.EscapeString(j.id) + `">` + html.EscapeString(j.label) + `</a></li>`)
	}
	b.WriteString(`</ul></nav>`)
	return app.Raw(b.String())
}

// sections are the experiments beyond the run, each a panel that folds.
func (p *playground) sections(v pageViews) app.UI {
	return app.Div().ID("sections").Class("sections").Body(
		widget.Section("door-section", "", "door-section-h", "Door checklist",
			settings.NewRows().Settings(only(v.settings, model.Door)).View(v.view).OnChoice(p.onChoice)),
		widget.Section("gateway-section", "", "gateway-section-h", "Gateway",
			settings.NewRows().Settings(only(v.settings, model.Gateway)).View(v.view).OnChoice(p.onChoice)),
		experiments.NewLaunchPanel().Launch(v.launch).OnRun(p.onRunLaunch).OnSelect(p.onSelectStep),
		experiments.NewMetricsPanel().Metrics(v.metrics),
		experiments.NewPrometheusView().Text(v.prometheus),
		run.NewEventLog().Events(v.events).Selected(v.selected).OnSelect(p.onSelectStep),
		deploy.NewDeployPanel().OnChecked(p.onDeployChecked),
		replaypanel.New().Config(p.s.Config()).Embed(v.view.Embed).Servers(p.servers),
		share.NewSharePanel().Links(v.links).OnExport(p.exportRun).OnExportTrace(p.exportTrace).OnImport(p.onImport),
		tour.NewTimelineView().Points(model.IncidentTimeline()),
	)
}

// sectionSettings are shown in a section of their own rather than in the
// bench's settings form, each an experiment of the article's.
var sectionSettings = []model.Field{model.Door, model.Gateway}

// benchSettings are the settings the bench's form shows.
func benchSettings(all []model.SettingView) []model.SettingView {
	var out []model.SettingView
	for _, s := range all {
		if !slices.Contains(sectionSettings, s.Field) {
			out = append(out, s)
		}
	}
	return out
}

// only is field f's setting, for its section.
func only(all []model.SettingView, f model.Field) []model.SettingView {
	for _, s := range all {
		if s.Field == f {
			return []model.SettingView{s}
		}
	}
	return nil
}
