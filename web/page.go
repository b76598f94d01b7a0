package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/deploycheck"
	"kvleak/web/challenge"
	"kvleak/web/dom"
	"kvleak/web/experiments"
	"kvleak/web/model"
	"kvleak/web/pool"
	"kvleak/web/run"
	"kvleak/web/settings"
	"kvleak/web/tour"
	"kvleak/web/widget"
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
	late   lateState // the panels that follow a change after its paint
	// keptInTab: the run, too long for a link, is in the tab's storage.
	keptInTab bool
	// progressRead: the ladder's progress was read from the browser (ladder.go).
	progressRead bool
	// dragged: the last change came from the timeline's slider (onScrub),
	// which a drag moves once a frame: there the pipeline's marker moves
	// without its arriving halo, whose animation is a layer of its own, and
	// the address bar waits for the drag to end (apply.go).
	dragged bool
	// scrubbing: a drag of the timeline has not ended yet (onScrubEnd):
	// the pool grid's cells keep their names until it does.
	scrubbing bool
	addr      *dom.AddressBar // writes the address bar after the paint
	urlDue    bool            // a change's state is not yet in addr (writeDueURL)
	// embedWired: an embed tells its parent its height (dom.ReportHeight)
	// and opens its links in a new tab (dom.OpenLinksOutside).
	embedWired bool
	stops      []func()
	// servers are the Deploy check's two servers' settings, which the
	// Replay panel offers to replay a log at; nil until a check holds two.
	servers *deploycheck.ServerSettings
	// self is the page's own context, from OnMount (browser only): a change
	// made from a child that shows only its inputs renders the page through
	// it (renderPageOnly).
	self app.Context
}

// narrowWidth is the viewport width (CSS px) below which the grid draws
// model.MaxGridCellsNarrow cells.
const narrowWidth = 560

func newPlayground() *playground { return &playground{s: model.NewSession()} }

// Routes registers the playground's pages. The wasm main and the static site
// generator both call it, so the prerendered HTML and the app agree.
func Routes() {
	app.Route("/", func() app.Composer { return newPlayground() })
}

// OnMount marks the page as running in wasm.
func (p *playground) OnMount(ctx app.Context) {
	defer p.contain(ctx)
	ctx.Handle(widget.CrashAction, p.handleCrash)
	p.installTestHooks(ctx)
	p.stops = append(p.stops, dom.FollowJumpLinks())
	p.self = ctx
	p.addr = dom.NewAddressBar(ctx.Page(), p.catchUpURL)
	p.stops = append(p.stops, p.addr.Stop)
	p.startFollowing()
	p.ready = true
	p.narrow = dom.ViewportWidth() < narrowWidth
	p.scoreChallenge() // reads the ladder's progress
}

func (p *playground) OnDismount() {
	for _, stop := range p.stops {
		stop()
	}
	p.stops, p.addr = nil, nil
}

func (p *playground) Render() app.UI {
	widget.CountRender("playground")
	if p.s.View().Embed {
		p.late.onScreen = false
		p.writeDueURL(false)
		return p.renderEmbed(p.views(true), "page embed")
	}
	held := p.holdLate()
	if !held {
		p.writeDueURL(false)
	}
	v := p.followLater(p.views(!held), held)
	main := app.Main().ID("playground").Class("page").DataSet("ready", widget.BoolText(p.ready))
	if p.late.held {
		main = main.DataSet("late", "held")
	}
	if v.tour.Open {
		main = main.DataSet("tour-spot", v.tour.Card.Spot)
	}
	// The run comes first in the document — the verdict, the stepper, the
	// pipeline, the pools — then the settings and the request form, so that
	// on a phone, where the columns stack, the run is read (and tabbed
	// through) before the controls. On a wide screen the bench's two columns
	// stand side by side, the request form at the top of the controls and
	// the pool under the verdict (app.css: .layout); the experiments follow
	// in sections of their own, each linked from the top (sections.go).
	return app.Div().Class("page-wrap").Body(
		main.Body(
			tour.NewIntro().OnTour(p.onTourOpen),
			p.alerts(),
			jumpNav(),
			app.Div().ID("bench").Class("layout").Body(
				app.Div().ID("col-run").Class("col-run").Body(
					run.NewResponsePanel().Response(v.response),
					run.NewStepper().Step(v.step).Of(v.steps).Playing(v.playing).
						OnStepBy(p.onStepBy).OnPlay(p.onPlay),
					run.NewScrubber().Step(v.step).Of(v.steps).Marks(v.marks).OnSelect(p.onScrub).OnDone(p.onScrubEnd),
					run.NewPipelineView().Pipeline(v.pipeline).Dragged(p.dragged),
					slot("compare-slot", v.view.Compare, func() app.UI {
						return run.NewCompareView().Comparison(v.compare).Err(v.compareErr)
					}),
					pool.NewPoolView().Pool(v.pool).Prefill(v.prefill).Compare(v.view.Compare).Scrubbing(p.scrubbing).
						OnZoom(p.onZoom).OnZoomOut(p.onZoomOut).OnCompare(p.onCompare),
					slot("lingering-slot", len(v.lingering) > 0, func() app.UI {
						return experiments.NewLingeringPanel().Requests(v.lingering).OnSettle(p.onSettle)
					}),
				),
				app.Div().Class("col-controls").Body(
					// The tour's card stands beside the run it talks about (app.css).
					slot("tour-slot", v.tour.Open, func() app.UI {
						return tour.NewTour().Tour(v.tour).OnTo(p.onTourTo).OnClose(p.onTourClose).OnFix(p.onTourFix).OnStep(p.onSelectStep)
					}),
					p.challengeSlot(v),
					settings.NewSettingsForm().Presets(v.presets).Settings(benchSettings(v.settings)).View(v.view).Notice(v.notice).
						OnPreset(p.onPreset).OnNumber(p.onNumber).OnChoice(p.onChoice).OnFlag(p.onFlag),
					run.NewRequestForm().Form(v.request).
						OnText(p.onText).OnNumber(p.onNumber).OnTenant(p.onTenant).OnEnd(p.onEnd).OnAction(p.onFormAction),
					run.NewSendResult().Response(v.response),
					challenge.List(v.challenges, p.onChallenge), // folded: the page still folds to three screens
				),
			),
			p.sections(v),
		),
		tour.NewSources(),
	)
}

// alerts are the crash banner and the link banner, in a stable container.
func (p *playground) alerts() app.UI {
	return slot("alerts", true, func() app.UI {
		return app.Div().Class("alerts").Body(
			app.If(p.crash != "", func() app.UI {
				return newCrashBanner().Details(p.crash).OnDismiss(p.onDismissCrash)
			}),
			app.If(p.banner != "", func() app.UI {
				return newLinkBanner().Message(p.banner).OnDismiss(p.onDismissBanner)
			}),
		)
	})
}

// challengeSlot holds the open challenge's panel, beside the request form.
func (p *playground) challengeSlot(v pageViews) app.UI {
	return slot("challenge-slot", v.challenge.Open, func() app.UI {
		return challenge.Panel(v.challenge, p.onChallenge)
	})
}

// slot holds a part of the page that comes and goes. go-app diffs children
// by position: without a stable container, a panel that appeared would
// shift the ones after it and remount them, losing their own state (the
// grid's focus, the log's blocks).
func slot(id string, show bool, part func() app.UI) app.UI {
	return app.Div().ID(id).Class("slot").Body(app.If(show, part))
}
