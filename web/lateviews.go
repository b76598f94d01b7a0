package web

import (
	"reflect"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/model"
)

// lateViews are the views of the panels that follow a change one painted
// frame later: the event log, the metrics, the Prometheus text, the launch
// tests and the share links. A change renders what the reader watches — the
// verdict, the pool, the pipeline, the scrubber — in the click's own task,
// and these once that frame is painted (afterPaint): they sit below the
// fold, and their render, diff, style and layout were about a fifth of the
// time from a Send to its paint. While they lag, the page's root carries
// data-late="held".
type lateViews struct {
	links      shareLinks
	metrics    model.MetricsView
	prometheus string
	launch     model.LaunchView
	events     []engine.Event
	selected   int
}

func lateOf(v pageViews) lateViews {
	return lateViews{links: v.links, metrics: v.metrics, prometheus: v.prometheus,
		launch: v.launch, events: v.events, selected: v.selected}
}

// into puts l in v's place.
func (l lateViews) into(v *pageViews) {
	v.links, v.metrics, v.prometheus = l.links, l.metrics, l.prometheus
	v.launch, v.events, v.selected = l.launch, l.events, l.selected
}

// lateState is what the page keeps of its late panels.
type lateState struct {
	shown    lateViews   // what they show
	onScreen bool        // the last render put them on the page (an embed has none)
	held     bool        // shown is older than the session
	released bool        // the next render shows the session's
	follow   *afterPaint // asks for that render (browser only)
}

// followLater hands the late panels the views they show when the session's
// differ, and asks for a render with the new ones after the paint. Before
// the page runs in the browser (the prerender, the first render), in a
// hidden page (no frame is painted there) and on that render, they get the
// session's at once; so they do when the last render did not show them.
func (p *playground) followLater(v pageViews) pageViews {
	l := &p.late
	now := lateOf(v)
	shown := l.onScreen
	l.onScreen = true
	if l.follow == nil || !shown || l.released || reflect.DeepEqual(now, l.shown) || !l.follow.schedule() {
		l.shown, l.held, l.released = now, false, false
		return v
	}
	l.held = true
	l.shown.into(&v)
	return v
}

// startFollowing makes the late panels follow after the paint, through the
// page's own context (OnMount sets p.self first).
func (p *playground) startFollowing() {
	p.late.follow = newAfterPaint(func() {
		p.self.Dispatch(func(app.Context) { p.late.released = true })
	})
	p.stops = append(p.stops, func() { p.late.follow.release(); p.late.follow = nil })
}
