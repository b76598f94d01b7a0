package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/deploycheck"
	"kvleak/engine"
	"kvleak/web/model"
	"kvleak/web/run"
	"kvleak/web/share"
	"kvleak/web/tour"
)

// The page's answers to its children's callbacks: each is one change
// through apply.

func (p *playground) onPreset(ctx app.Context, slug string) {
	if slug == model.PresetCustom {
		return
	}
	p.apply(ctx, func(s *model.Session) error { return s.LoadPreset(slug) })
}

func (p *playground) onNumber(ctx app.Context, f model.Field, text string) string {
	p.apply(ctx, func(s *model.Session) error { return s.SetNumber(f, text) })
	return p.s.Text(f)
}

func (p *playground) onChoice(ctx app.Context, f model.Field, value string) {
	p.apply(ctx, func(s *model.Session) error { return s.SetChoice(f, value) })
}

func (p *playground) onFlag(ctx app.Context, f model.Field, on bool) {
	p.apply(ctx, func(s *model.Session) error { return s.SetFlag(f, on) })
}

func (p *playground) onText(ctx app.Context, f model.Field, text string) {
	p.apply(ctx, func(s *model.Session) error { return s.SetText(f, text) })
}

func (p *playground) onTenant(ctx app.Context, name string) {
	p.apply(ctx, func(s *model.Session) error { return s.SelectTenant(name) })
}

// onFormAction answers the request form's buttons.
func (p *playground) onFormAction(ctx app.Context, a run.FormAction) {
	p.renderPageOnly(ctx)
	switch a {
	case run.ActionSend:
		p.onSend(ctx)
	case run.ActionReset:
		p.onReset(ctx)
	case run.ActionAddTenant:
		p.apply(ctx, (*model.Session).AddTenant)
	case run.ActionRename:
		p.apply(ctx, (*model.Session).Rename)
	}
}

// renderPageOnly renders the page for a change made from ctx's component,
// but not that component: go-app flags the component whose element handled
// an event, and its ancestors, for an update, and the request form shows
// only its Form, which the page's render hands it again, new or not: its
// own render on every Send was a wasted one. Natively there is no self (OnMount
// is browser-only) and the flag stays, which only costs a render.
func (p *playground) renderPageOnly(ctx app.Context) {
	if !p.ready { // p.self is set with ready
		return
	}
	ctx.PreventUpdate()
	p.self.Update()
}

func (p *playground) onEnd(ctx app.Context, v string) {
	p.apply(ctx, func(s *model.Session) error { return s.SetEnd(v) })
}

// onSend sends the request; the line under the form says what came of it
// (run/sendresult.go).
func (p *playground) onSend(ctx app.Context) {
	p.apply(ctx, (*model.Session).Send)
}

func (p *playground) onReset(ctx app.Context) {
	p.apply(ctx, func(s *model.Session) error { s.Reset(); return nil })
}

func (p *playground) onSettle(ctx app.Context, request int, o engine.Outcome) {
	p.apply(ctx, func(s *model.Session) error { return s.Settle(request, o) })
}

func (p *playground) onRunLaunch(ctx app.Context) {
	p.apply(ctx, (*model.Session).RunLaunchTests)
}

func (p *playground) onStepBy(ctx app.Context, d int) {
	p.apply(ctx, func(s *model.Session) error { s.StepBy(d); return nil })
}

func (p *playground) onSelectStep(ctx app.Context, step int) {
	p.apply(ctx, func(s *model.Session) error { return s.SelectStep(step) })
}

func (p *playground) onScrub(ctx app.Context, step int) {
	p.applyDrag(ctx, func(s *model.Session) error { return s.ScrubTo(step) })
}

// onScrubEnd writes the address bar that a drag held (apply.go), and
// gives the pool grid's cells their names (model.Session.HoldNames).
func (p *playground) onScrubEnd(ctx app.Context) {
	p.scrubbing = false
	p.s.HoldNames(false)
	p.writeDueURL(false)
	if p.addr != nil {
		p.addr.Release()
	}
}

func (p *playground) onZoom(ctx app.Context, first, last int) {
	p.apply(ctx, func(s *model.Session) error { return s.Zoom(first, last) })
}

func (p *playground) onZoomOut(ctx app.Context) {
	p.apply(ctx, func(s *model.Session) error { s.ZoomOut(); return nil })
}

func (p *playground) onCompare(ctx app.Context) {
	p.apply(ctx, func(s *model.Session) error { s.ToggleCompare(); return nil })
}

// onImport loads an exported run; the share panel shows the outcome.
func (p *playground) onImport(ctx app.Context, data []byte) (int, error) {
	err := p.apply(ctx, func(s *model.Session) error { return s.ImportRun(data) })
	return len(p.s.Ops()), err
}

// exportRun is the run as the JSON file Export downloads.
func (p *playground) exportRun() (share.RunExport, error) {
	return share.NewRunExport(p.s)
}

// exportTrace is the run as the trace Export trace downloads.
func (p *playground) exportTrace() (share.TraceExport, error) { return share.NewTraceExport(p.s) }

func (p *playground) onTourOpen(ctx app.Context) { p.onTourTo(ctx, 1) }

func (p *playground) onTourTo(ctx app.Context, card int) {
	p.apply(ctx, func(s *model.Session) error { return s.TourTo(card) })
}

func (p *playground) onTourClose(ctx app.Context) {
	p.apply(ctx, func(s *model.Session) error { s.CloseTour(); return nil })
}

// onTourFix applies one of the tour's last card's fixes to the demo.
func (p *playground) onTourFix(ctx app.Context, fix tour.TourFix) {
	p.apply(ctx, func(s *model.Session) error {
		if fix == tour.FixDoor {
			return s.SetMode(engine.Fixed)
		}
		return s.FitLastPrompt()
	})
}

func (p *playground) onDismissBanner(ctx app.Context) { p.banner = "" }
func (p *playground) onDismissCrash(ctx app.Context)  { p.crash = "" }

// onDeployChecked keeps the Deploy check's servers' settings for the
// Replay panel: rooms do not import each other, so they pass here.
func (p *playground) onDeployChecked(ctx app.Context, s *deploycheck.ServerSettings) {
	p.servers = s
}
