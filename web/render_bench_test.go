package web

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The Go side of the bench's actions at demo scale, natively: the change,
// the views, the page's render and go-app's diff (not the calls into
// JavaScript a browser adds). A profile of these shows where a step's
// Go time goes: go test -bench PageStep -cpuprofile cpu.out ./web/

func BenchmarkPageStep(b *testing.B) {
	m, e := mountPage(b)
	for range 20 {
		m.ctx.Dispatch(m.onSend)
		e.ConsumeAll()
	}
	d := -1
	for b.Loop() {
		m.ctx.Dispatch(func(ctx app.Context) { m.onStepBy(ctx, d) })
		e.ConsumeAll()
		d = -d
	}
}

func BenchmarkPageSend(b *testing.B) {
	m, e := mountPage(b)
	sent := 0
	for b.Loop() {
		if sent++; sent%20 == 0 { // as the bench does: 20 Sends on the demo
			b.StopTimer()
			m.ctx.Dispatch(func(ctx app.Context) { m.onPreset(ctx, "demo") })
			e.ConsumeAll()
			b.StartTimer()
		}
		m.ctx.Dispatch(m.onSend)
		e.ConsumeAll()
	}
}
