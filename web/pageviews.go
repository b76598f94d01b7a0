package web

import (
	"fmt"
	"runtime/debug"
	"strings"

	"kvleak/engine"
	"kvleak/web/model"
	"kvleak/web/share"
	"kvleak/web/widget"
)

// pageViews is what the page hands its children: the session's views at
// this render. The costly ones come from the session's memo, so an
// unchanged view is the same value and go-app leaves its component alone.
type pageViews struct {
	view       model.View
	presetName string
	fullQuery  string // the run's link without the embed keys (late)
	presets    model.PresetView
	settings   []model.SettingView
	notice     string
	request    model.RequestView
	links      share.ShareLinks
	response   model.ResponseView
	step       int // the step on screen
	steps      int
	selected   int // the selected step, 0 for the latest
	playing    bool
	compare    model.CompareView
	compareErr string
	pool       model.PoolPanelView
	prefill    model.PrefillPoolView
	pipeline   model.PipelineView
	marks      []model.PlacedMark
	tour       model.TourView
	challenge  model.ChallengeView
	challenges model.ChallengeList
	mode       string // the admission door
	lingering  []model.Lingering
	metrics    model.MetricsView
	events     engine.Log
	launch     model.LaunchView
	prometheus string
}

// views reads the session's views; those of the panels that follow after
// the paint (lateViews) only when late says this render shows them, since a
// change's own task holds them anyway. A panic here (a bug) is contained:
// the crash banner shows over the views of the last render that worked.
func (p *playground) views(late bool) (v pageViews) {
	defer func() {
		if r := recover(); r != nil {
			p.crash = crashDetails(fmt.Sprint(r), debug.Stack(), p.s)
			v = p.last
			return
		}
		p.last = v
	}()
	s := p.s
	widget.TestPanic("views")
	v.view = s.View()
	v.presetName = s.PresetName()
	v.presets, v.settings, v.notice = s.Presets(), s.Settings(), s.Notice()
	v.request = s.Request()
	v.response = s.Response()
	v.step, v.steps, v.playing = s.Current(), s.Steps(), s.Playing()
	if v.view.Compare || v.view.Panel == "compare" {
		var err error
		if v.compare, err = s.Compare(); err != nil {
			v.compareErr = err.Error()
		}
	}
	cells := model.MaxGridCells
	if p.narrow {
		cells = model.MaxGridCellsNarrow
	}
	v.pool = s.PoolPanel(cells)
	v.prefill = s.PrefillPool()
	v.pipeline = s.Pipeline()
	v.marks = s.ScrubMarks()
	v.tour = s.Tour()
	v.challenge, v.challenges = s.Challenge(), s.Challenges()
	if a := v.challenge.Announce; a != "" { // the page's status region says it was solved
		v.response.Announce = strings.TrimSpace(v.response.Announce + " " + a)
	}
	v.mode = string(s.Config().Mode)
	v.lingering = s.Lingering()
	if late {
		p.lateViews().into(&v)
	}
	return v
}

// lateViews reads the views of the panels that follow after the paint.
func (p *playground) lateViews() (l lateViews) {
	s := p.s
	l.links = share.ShareLinks{Linkable: s.Linkable(), KeptInTab: p.keptInTab}
	// A run too long for a link has none to share: building one encoded
	// every operation again on each Send (at 1,000 requests, a sixth of a
	// Send's allocations). The embed's caption then opens the playground.
	if l.links.Linkable {
		l.fullQuery = s.Query(model.View{Compare: s.View().Compare})
		l.links.Query, l.links.EmbedQuery = l.fullQuery, s.Query(model.View{Embed: true, Challenge: s.View().Challenge})
	}
	l.metrics = s.Metrics()
	l.events, l.selected = s.Engine().Log(), s.Step()
	l.launch, l.prometheus = s.Launch(), s.Prometheus()
	return l
}
