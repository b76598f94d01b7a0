package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// playground is the page a reader opens next to the postmortem. It keeps
// the session and the URL; the page is built from child components that
// get their part of the session as inputs and report what the reader did
// through callbacks, which all end in apply (apply.go).
type playground struct {
	app.Compo

	s      *model.Session
	ready  bool      // the wasm runs: until then the prerendered page shows
	narrow bool      // a phone-sized viewport: a smaller grid
	banner string    // why a link could not be opened
	crash  string    // the details of a recovered panic (crash.go)
	last   pageViews // the views of the last render that worked
	// keptInTab: the run, too long for a link, is in the tab's storage.
	keptInTab bool
	stops     []func()
}

// narrowWidth is the viewport width (CSS px) below which the grid draws
// model.MaxGridCellsNarrow cells.
const narrowWidth = 560

func newPlayground() *playground { return &playground{s: model.NewSession()} }

// OnMount marks the page as running in wasm.
func (p *playground) OnMount(ctx app.Context) {
	defer p.contain(ctx)
	ctx.Handle(crashAction, p.handleCrash)
	p.installTestHooks(ctx)
	p.ready = true
	p.narrow = app.Window().Get("innerWidth").Int() < narrowWidth
}

func (p *playground) OnDismount() {
	for _, stop := range p.stops {
		stop()
	}
	p.stops = nil
}

func (p *playground) Render() app.UI {
	countRender("playground")
	v := p.views()
	embed, readOnly := v.view.Embed, v.view.ReadOnly
	cls := "page"
	if embed {
		cls += " embed"
	}
	return app.Main().ID("playground").Class(cls).DataSet("ready", boolText(p.ready)).Body(
		app.If(!embed, func() app.UI { return newIntro() }).
			Else(func() app.UI { return newCaption().Name(v.presetName).Href("?" + v.fullQuery) }),
		// A stable container: go-app diffs children by position, so a banner
		// that came and went among the page's children would remount the
		// layout after it.
		app.Div().ID("alerts").Body(
			app.If(p.crash != "", func() app.UI {
				return newCrashBanner().Details(p.crash).OnDismiss(p.onDismissCrash)
			}),
			app.If(p.banner != "", func() app.UI {
				return newLinkBanner().Message(p.banner).OnDismiss(p.onDismissBanner)
			}),
		),
		app.Div().Class("layout").Body(
			app.If(!readOnly, func() app.UI {
				return app.Div().Class("col-controls").Body(
					newSettingsForm().Presets(v.presets).Settings(v.settings).Notice(v.notice).
						OnPreset(p.onPreset).OnNumber(p.onNumber).OnChoice(p.onChoice).OnFlag(p.onFlag),
					newRequestForm().Form(v.request).
						OnText(p.onText).OnNumber(p.onNumber).OnTenant(p.onTenant).OnEnd(p.onEnd).OnAction(p.onFormAction),
					app.If(!embed, func() app.UI {
						return newSharePanel().Links(v.links).
							OnExport(p.exportRun).OnImport(p.onImport)
					}),
				)
			}),
			app.Div().Class("col-results").Body(
				newResponsePanel().Response(v.response),
				newStepper().Step(v.step).Of(v.steps).Playing(v.playing).
					OnStepBy(p.onStepBy).OnPlay(p.onPlay),
				app.If(v.view.Compare, func() app.UI {
					return newCompareView().Comparison(v.compare).Err(v.compareErr)
				}),
				newPoolView().Grid(v.grid).Note(v.poolNote).Err(v.gridErr).Selected(v.selected).Compare(v.view.Compare).
					OnZoom(p.onZoom).OnZoomOut(p.onZoomOut).OnCompare(p.onCompare),
				app.If(len(v.lingering) > 0, func() app.UI {
					return newLingeringPanel().Requests(v.lingering).OnSettle(p.onSettle)
				}),
				newMetricsPanel().Metrics(v.metrics),
				newPrometheusView().Text(v.prometheus),
				app.If(!readOnly, func() app.UI {
					return newLaunchPanel().Launch(v.launch).OnRun(p.onRunLaunch).OnSelect(p.onSelectStep)
				}),
				newEventLog().Events(v.events).Selected(v.selected).OnSelect(p.onSelectStep),
			),
		),
		app.If(!embed, func() app.UI { return newTimelineView().Points(model.Timeline()) }),
	)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
