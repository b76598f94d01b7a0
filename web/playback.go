package web

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
)

// Auto-play pace; slower when the reader asks for reduced motion.
const (
	playEvery        = 700 * time.Millisecond
	playEveryReduced = 1500 * time.Millisecond
)

// onPlay starts or pauses playing the log step by step.
func (p *playground) onPlay(ctx app.Context) {
	if p.s.Playing() {
		p.apply(ctx, func(s *model.Session) error { return nil }) // apply pauses
		return
	}
	p.apply(ctx, func(s *model.Session) error { s.Play(); return nil })
	if p.s.Playing() {
		p.tick(ctx, p.s.Current())
	}
}

// tick advances one step after the pace's interval while playing. It only
// goes on from the step it left: any change in between (which pauses, or
// a new Play with its own ticks) ends this chain.
func (p *playground) tick(ctx app.Context, from int) {
	ctx.After(playInterval(), func(ctx app.Context) {
		if !p.s.Playing() || p.s.Current() != from {
			return
		}
		defer p.contain(ctx)
		if p.s.Tick() {
			p.tick(ctx, p.s.Current())
		}
		p.urlDue = true // the render after the tick writes it
	})
}

// playInterval is the pace of auto-play for this reader.
func playInterval() time.Duration {
	if dom.ReducedMotion() {
		return playEveryReduced
	}
	return playEvery
}
