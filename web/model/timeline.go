package model

import (
	"strconv"

	"kvleak/engine"
)

// TimelineMark is a point of the scrubber: a request's first event or its
// end (its response).
type TimelineMark struct {
	Step    int
	Request int
	Tenant  string // who sent it
	End     bool
	Status  int  // at the end: the response's HTTP status
	Leak    bool // at the end: the response carried another tenant's pages

	label string // Label, kept: the marks are placed again at every Send
}

// labelled is m with its label kept.
func (m TimelineMark) labelled() TimelineMark {
	m.label = m.Label()
	return m
}

// Label is what the mark says: "r2 · B" at the start, "r2 200" or
// "r2 200 ⚠ leak" at the end.
func (m TimelineMark) Label() string {
	if m.label != "" {
		return m.label
	}
	id := "r" + strconv.Itoa(m.Request)
	if !m.End {
		return id + " · " + m.Tenant
	}
	return id + " " + strconv.Itoa(m.Status) + leakSuffix(m.Leak)
}

func leakSuffix(leak bool) string {
	if leak {
		return " ⚠ leak"
	}
	return ""
}

// Timeline lists the scrubber's marks: where each request starts and where
// it ends (its response), in log order. The log only grows, so the marks
// are extended by the events added since the last call, not rebuilt: a
// rebuild read the whole log on every Send and every step (at 1,000
// requests, a third of a Send's allocations).
func (s *Session) Timeline() []TimelineMark {
	s.memo.marks.extend(s.eng)
	return s.memo.marks.marks
}

// timelineMarks is the marks of one engine's log up to its event done.
type timelineMarks struct {
	eng     *engine.Engine
	done    int
	started []bool // by request id: its start is marked
	marks   []TimelineMark
}

func (t *timelineMarks) extend(e *engine.Engine) {
	evs := e.Log()
	if t.eng != e || t.done > evs.Len() {
		*t = timelineMarks{eng: e, marks: []TimelineMark{}}
	}
	for ; t.done < evs.Len(); t.done++ {
		t.add(e, evs.At(t.done))
	}
}

func (t *timelineMarks) add(e *engine.Engine, ev *engine.Event) {
	if ev.Request == 0 || ev.Victim != 0 {
		return
	}
	for len(t.started) <= ev.Request {
		t.started = append(t.started, false)
	}
	if !t.started[ev.Request] {
		t.started[ev.Request] = true
		t.marks = append(t.marks, TimelineMark{Step: ev.Step, Request: ev.Request, Tenant: ev.Tenant}.labelled())
	}
	if ev.Stage == engine.StageResponse {
		r, _ := e.Response(ev.Request)
		t.marks = append(t.marks, TimelineMark{Step: ev.Step, Request: ev.Request, Tenant: ev.Tenant, End: true, Status: r.Status, Leak: r.Leaked()}.labelled())
	}
}
