package web

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Keyboard shortcuts of the step-through controls. Plain keys that browsers
// leave alone; ignored while typing in a field or with a modifier held.
const (
	keyBack = ","
	keyNext = "."
	keyPlay = "p"
)

// Auto-play pace; slower when the reader asks for reduced motion.
const (
	playEvery        = 700 * time.Millisecond
	playEveryReduced = 1500 * time.Millisecond
)

func (p *playground) renderStepper() app.UI {
	n := len(p.s.eng.Events())
	cur := p.s.current()
	play, playLabel := "Play", "Play the log from this step ("+keyPlay+")"
	if p.playing {
		play, playLabel = "Pause", "Pause ("+keyPlay+")"
	}
	return app.Div().ID("stepper").Class("stepper").Role("group").Aria("label", "Step through the event log").Body(
		button("step-back", "◀ Back", cur <= 1).Class("secondary").
			Title("Step back ("+keyBack+")").Aria("keyshortcuts", keyBack).OnClick(p.onStepBy(-1)),
		button("play", play, n == 0).Class("secondary").
			Title(playLabel).Aria("keyshortcuts", keyPlay).Aria("pressed", p.playing).OnClick(p.onPlay),
		button("step-next", "Next ▶", cur >= n).Class("secondary").
			Title("Step forward ("+keyNext+")").Aria("keyshortcuts", keyNext).OnClick(p.onStepBy(1)),
		app.Span().ID("step-pos").Class("hint").Text(fmt.Sprintf("Step %d of %d", cur, n)),
	)
}

func (p *playground) onStepBy(d int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		p.playing = false
		p.s.stepBy(d)
		p.sync(ctx)
	}
}

func (p *playground) onPlay(ctx app.Context, e app.Event) { p.togglePlay(ctx) }

func (p *playground) togglePlay(ctx app.Context) {
	p.playing = !p.playing
	if p.playing {
		if p.s.current() >= len(p.s.eng.Events()) {
			p.s.step = 1 // replay from the start
		}
		p.tick(ctx)
	}
	p.sync(ctx)
}

// tick advances one step and schedules the next while playing.
func (p *playground) tick(ctx app.Context) {
	every := playEvery
	if reducedMotion() {
		every = playEveryReduced
	}
	ctx.After(every, func(ctx app.Context) {
		if !p.playing {
			return
		}
		if !p.s.stepBy(1) {
			p.playing = false
		} else {
			p.tick(ctx)
		}
		p.sync(ctx)
		ctx.Update()
	})
}

// onKey handles the step-through shortcuts.
func (p *playground) onKey(ctx app.Context, key string) {
	switch key {
	case keyBack:
		p.playing = false
		p.s.stepBy(-1)
	case keyNext:
		p.playing = false
		p.s.stepBy(1)
	case keyPlay:
		p.togglePlay(ctx)
		return
	default:
		return
	}
	p.sync(ctx)
}

// listenKeys calls h for plain key presses outside form fields, on the
// component's goroutine. It returns a stop function.
func listenKeys(ctx app.Context, h func(ctx app.Context, key string)) func() {
	doc := app.Window().Get("document")
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
			return nil
		}
		switch ev.Get("target").Get("tagName").String() {
		case "INPUT", "SELECT", "TEXTAREA":
			return nil
		}
		key := ev.Get("key").String()
		if key != keyBack && key != keyNext && key != keyPlay {
			return nil
		}
		ev.Call("preventDefault")
		ctx.Dispatch(func(ctx app.Context) { h(ctx, key) })
		return nil
	})
	doc.Call("addEventListener", "keydown", fn)
	return func() {
		doc.Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}

// reducedMotion reports the reader's prefers-reduced-motion setting.
func reducedMotion() bool {
	mm := app.Window().Get("matchMedia")
	if !mm.Truthy() {
		return false
	}
	return app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Bool()
}
