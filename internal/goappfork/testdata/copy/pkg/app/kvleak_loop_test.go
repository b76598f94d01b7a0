package app

import (
	"testing"
	"time"
)

// Edit render-at-once: a click renders at once unless the render before it
// was itself one right after another, so a render that dispatches again
// cannot spin, and a click right after the page's own render is not held
// for the ticker.
func TestKvleakRenderGate(t *testing.T) {
	t0 := time.Now()
	at := func(us int) time.Time { return t0.Add(time.Duration(us) * time.Microsecond) }
	var g renderGate
	if !g.open(at(0)) {
		t.Fatal("the first render waits")
	}
	g.rendered(at(0), at(5000)) // the page's own render, long after the last
	if !g.open(at(5100)) {
		t.Error("a click 0.1 ms after the page's own render waits for the ticker")
	}
	g.rendered(at(5100), at(6000)) // that click's render, right after
	if g.open(at(6100)) {
		t.Error("a third render in a row, each right after the last, does not wait: a render that dispatches again would spin")
	}
	if !g.open(at(7000)) {
		t.Error("a millisecond after a quick render, the gate stays shut")
	}
	g.rendered(at(14300), at(15000)) // the ticker's render
	if !g.open(at(15050)) {
		t.Error("after a render that came through the ticker, a click waits")
	}
}

// Edit render-at-once: an empty frame is no render to the gate.
func TestKvleakEmptyFrameHasNoWork(t *testing.T) {
	e := &engineX{defers: make(chan func(), 1)}
	if e.frameHasWork() {
		t.Error("a frame with nothing queued has work")
	}
	e.defers <- func() {}
	if !e.frameHasWork() {
		t.Error("a frame with a deferred function has no work")
	}
	<-e.defers
	e.updates.pending = []map[Composer]int{nil, {&Compo{}: 0}}
	if e.frameHasWork() {
		t.Error("a component whose updates were cancelled is work")
	}
	e.updates.pending[1][&Compo{}] = 1
	if !e.frameHasWork() {
		t.Error("a component marked for update is no work")
	}
}
