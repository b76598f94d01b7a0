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
// it ends (its response), in log order.
func (s *Session) Timeline() []TimelineMark {
	m := &s.memo
	if k := s.snapKey(); k.eng != m.marksKey.eng || k.events != m.marksKey.events || m.marks == nil {
		m.marks, m.marksKey = timelineMarks(s.eng), k
	}
	return m.marks
}

func timelineMarks(e *engine.Engine) []TimelineMark {
	marks := []TimelineMark{}
	started := map[int]bool{}
	for _, ev := range e.Events() {
		if ev.Request == 0 || ev.Victim != 0 {
			continue
		}
		if !started[ev.Request] {
			started[ev.Request] = true
			marks = append(marks, TimelineMark{Step: ev.Step, Label: "r" + strconv.Itoa(ev.Request) + " · " + ev.Tenant})
		}
		if ev.Stage == engine.StageResponse {
			r := e.Responses()[ev.Request-1]
			end := strconv.Itoa(r.Status)
			if r.Leaked() {
				end += " ⚠ leak"
			}
			marks = append(marks, TimelineMark{Step: ev.Step, Label: "r" + strconv.Itoa(ev.Request) + " " + end, End: true})
		}
	}
	return marks
}
