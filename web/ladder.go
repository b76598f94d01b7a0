package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/challenge"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// The capture-the-flag ladder (web/challenge): the page's answers to its
// callbacks, and the progress kept in the browser's localStorage, read once
// the wasm runs and written when a run is a try or a solve. Nothing of it
// leaves the page.

// ladder is the list of challenges, folded under the bench's settings: a
// way in that costs the page a line (the page folds to three screens).
func (p *playground) ladder(v pageViews) app.UI {
	return app.Details().ID("ctf").Class("panel section ladder").Aria("labelledby", "ctf-h").Body(
		app.Summary().Body(app.H2().ID("ctf-h").Text("Capture the flag")),
		challenge.NewList().Challenges(v.challenges).OnOpen(p.onChallengeOpen),
	)
}

func (p *playground) onChallengeOpen(ctx app.Context, n int) {
	p.apply(ctx, func(s *model.Session) error { return s.ChallengeTo(n) })
}

func (p *playground) onChallengeAnswer(ctx app.Context, answer string) {
	p.apply(ctx, func(s *model.Session) error { return s.AnswerChallenge(answer) })
}

func (p *playground) onChallengeRestart(ctx app.Context) {
	p.onChallengeOpen(ctx, p.s.View().Challenge)
}

func (p *playground) onChallengeClose(ctx app.Context) {
	p.apply(ctx, func(s *model.Session) error { s.CloseChallenge(); return nil })
}

// loadProgress reads the ladder's progress, once, in the browser. Progress
// it cannot read starts afresh, and the banner says so.
func (p *playground) loadProgress() {
	if p.progressRead || !app.IsClient {
		return
	}
	p.progressRead = true
	if err := p.s.LoadProgress(dom.ReadLocal(model.ProgressKey)); err != nil {
		p.banner = err.Error() + "; it starts afresh."
	}
}

// scoreChallenge judges the run against the open challenge after a change,
// and keeps the progress when it is a try or a solve.
func (p *playground) scoreChallenge() {
	p.loadProgress()
	if p.s.ScoreChallenge() && p.progressRead {
		_ = dom.KeepLocal(model.ProgressKey, p.s.Progress().Encode()) // GuardStorage stands in where storage is refused
	}
}
