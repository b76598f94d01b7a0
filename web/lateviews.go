package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/share"
)

// lateViews are the views of the panels that follow a change one painted
// frame later: the event log, the metrics, the Prometheus text, the launch
// tests and the share links (and the embed caption's link). A change renders
// what the reader watches — the verdict, the pool, the pipeline, the
// scrubber — in the click's own task, and these once that frame is painted
// (dom.AfterPaint): they sit below the fold, and their render, diff, style and
// layout were about a fifth of the time from a Send to its paint. Their
// views are not even read in the click's task (the links' queries and the
// Prometheus text were a tenth of a Send's task). While they lag, the
// page's root carries data-late="held".
type lateViews struct {
	fullQuery  string
	links      share.ShareLinks
	metrics    model.MetricsView
	prometheus string
	launch     model.LaunchView
	events     engine.Log
	selected   int
}

// into puts l in v's place.
func (l lateViews) into(v *pageViews) {
	v.fullQuery, v.links, v.metrics, v.prometheus = l.fullQuery, l.links, l.metrics, l.prometheus
	v.launch, v.events, v.selected = l.launch, l.events, l.selected
}

// lateState is what the page keeps of its late panels.
type lateState struct {
	shown    lateViews       // what they show
	onScreen bool            // the last render put them on the page (an embed has none)
	held     bool            // shown may be older than the session
	released bool            // the next render shows the session's
	follow   *dom.AfterPaint // asks for that render (browser only)
}

// holdLate reports whether this render keeps the late panels' views as
// they are, having asked for a render with the session's after the paint.
// Before the page runs in the browser (the prerender, the first render), in
// a hidden page (no frame is painted there) and on that render, they get
// the session's at once; so they do when the last render did not show them.
// Any other render holds them, changed or not: finding out would take the
// reading the hold saves, and a render that changed nothing below the fold
// costs one more render after the paint, whose inputs go-app finds equal.
func (p *playground) holdLate() bool {
	l := &p.late
	shown := l.onScreen
	l.onScreen = true
	if l.follow == nil || !shown || l.released || !l.follow.Schedule() {
		l.held, l.released = false, false
		return false
	}
	l.held = true
	return true
}

// followLater gives v the views the late panels show: the ones kept while
// held, else v's own, which are kept. A held v is also the views a crash
// falls back to (views), so that one shows its late panels too.
func (p *playground) followLater(v pageViews, held bool) pageViews {
	if held {
		p.late.shown.into(&v)
		p.last = v
		return v
	}
	p.late.shown = lateOf(v)
	return v
}

func lateOf(v pageViews) lateViews {
	return lateViews{fullQuery: v.fullQuery, links: v.links, metrics: v.metrics, prometheus: v.prometheus,
		launch: v.launch, events: v.events, selected: v.selected}
}

// startFollowing makes the late panels follow after the paint, through the
// page's own context (OnMount sets p.self first).
func (p *playground) startFollowing() {
	p.late.follow = dom.NewAfterPaint(func() {
		p.self.Dispatch(func(app.Context) {
			p.writeDueURL(true)
			p.late.released = true
		})
	})
	p.stops = append(p.stops, func() { p.late.follow.Stop(); p.late.follow = nil })
}
