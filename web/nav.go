package web

import (
	"errors"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/permalink"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// OnNav opens the state a permalink carries. A link that cannot be opened
// leaves the default scenario on screen and says why in a banner; its view
// keys (embed, read-only, compare) still apply.
func (p *playground) OnNav(ctx app.Context) {
	defer p.contain(ctx)
	st, err := model.DecodeLink(ctx.Page().URL().RawQuery)
	switch {
	case errors.Is(err, permalink.ErrNoState):
		p.s.SetView(st.View)
	case err != nil:
		p.s.SetView(st.View)
		p.banner = err.Error()
	case st.Tab:
		p.s.SetView(st.View)
		if err := p.restoreTabRun(); err != nil {
			p.banner = err.Error()
		}
	default:
		if err := p.s.ApplyLink(st); err != nil {
			p.s.SetView(st.View)
			p.banner = err.Error()
		}
	}
	if n := p.s.View().Tour; n > 0 {
		if err := p.s.TourTo(n); err != nil {
			p.banner = err.Error()
		}
	}
	// ?challenge=N alone (or with a run that cannot be opened) opens the
	// challenge on its start; with a run, on that run, which it judges
	// however it was made.
	if n := p.s.View().Challenge; n > 0 && err != nil {
		if err := p.s.ChallengeTo(n); err != nil {
			p.banner = err.Error()
		}
	}
	p.scoreChallenge()
	dom.ForceTheme(p.s.View().Theme)
	if p.s.View().Embed && !p.embedWired {
		p.embedWired = true
		p.stops = append(p.stops, dom.OpenLinksOutside(), func() { p.embedWired = false })
		if stop := dom.ReportHeight(); stop != nil {
			p.stops = append(p.stops, stop)
		}
	}
}

// restoreTabRun opens the run kept in the tab's storage (apply.go, dom.Keep).
func (p *playground) restoreTabRun() error {
	data := dom.Read(dom.TabStorage, model.TabKey)
	if len(data) == 0 {
		return model.ErrNotInTab
	}
	if err := p.s.RestoreTabRun(data); err != nil {
		return err
	}
	p.keptInTab = true
	return nil
}
