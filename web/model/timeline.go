package model

import (
	"strconv"

	"kvleak/engine"
)

// TimelineMark is a labelled point of the scrubber: a request's first event
// or its end.
type TimelineMark struct {
	Step  int
	Label string // "r2 · B" at the start, "r2 200" at the end
	End   bool
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
		t.marks = append(t.marks, TimelineMark{Step: ev.Step, Label: "r" + strconv.Itoa(ev.Request) + " · " + ev.Tenant})
	}
	if ev.Stage == engine.StageResponse {
		r, _ := e.Response(ev.Request)
		end := strconv.Itoa(r.Status)
		if r.Leaked() {
			end += " ⚠ leak"
		}
		t.marks = append(t.marks, TimelineMark{Step: ev.Step, Label: "r" + strconv.Itoa(ev.Request) + " " + end, End: true})
	}
}
