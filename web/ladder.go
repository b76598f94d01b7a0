package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
)

// The capture-the-flag ladder (web/challenge): the page's answers to its
// callbacks, and the progress kept in the browser's localStorage, read once
// the wasm runs and written when a run is a try or a solve. Nothing of it
// leaves the page.

// onChallenge answers the challenge room's panels.
func (p *playground) onChallenge(ctx app.Context, act, val string) {
	p.apply(ctx, func(s *model.Session) error { return s.ChallengeAction(act, val) })
}

// scoreChallenge judges the run against the open challenge after a change
// and keeps the progress when it is a try or a solve; the first time, in
// the browser, it reads the progress kept there. Progress it cannot read
// starts afresh, and the banner says so.
func (p *playground) scoreChallenge() {
	if !p.progressRead && app.IsClient {
		p.progressRead = true
		if err := p.s.LoadProgress(dom.Read(dom.BrowserStorage, model.ProgressKey)); err != nil {
			p.banner = err.Error() + "; it starts afresh."
		}
	}
	if p.s.ScoreChallenge() && p.progressRead {
		_ = dom.Keep(dom.BrowserStorage, model.ProgressKey, p.s.Progress().Encode()) // GuardStorage stands in where storage is refused
	}
}
