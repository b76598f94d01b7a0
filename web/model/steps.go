package model

import (
	"fmt"

	"kvleak/engine"
)

// Step is the selected log step; 0 follows the latest.
func (s *Session) Step() int { return s.step }

// Steps is how many events the log holds.
func (s *Session) Steps() int { return s.eng.Log().Len() }

// Current is the step on screen: the selected one, or the latest.
func (s *Session) Current() int {
	if s.step == 0 {
		return s.Steps()
	}
	return s.step
}

// SelectStep shows the pool after a step of the log (0 = the latest).
func (s *Session) SelectStep(step int) error {
	if step < 0 || step > s.Steps() {
		return fmt.Errorf("step %d: out of range", step)
	}
	s.step = step
	return nil
}

// ScrubTo shows the pool after a step picked on the timeline; the last
// step follows the latest, as stepping onto it does.
func (s *Session) ScrubTo(step int) error {
	if step == s.Steps() {
		step = 0
	}
	return s.SelectStep(step)
}

// HoldNames says whether the timeline is being dragged. While it is, a
// step keeps each grid cell's label and name (its long accessible name),
// where its pages are the same: a move across a reservation changes
// hundreds of cells, each one's name two strings built, and a drag moves
// once a frame. The cells' states and colours follow every move; their
// names, and the outline of the pages the selected event touched, catch up
// at the first Grid after the drag ends.
func (s *Session) HoldNames(on bool) { s.holdNames = on }

// StepBy moves the selected step by d within the log, reaching "latest"
// at the end. It reports whether the step moved.
func (s *Session) StepBy(d int) bool {
	n := s.Steps()
	if n == 0 {
		return false
	}
	next := min(max(s.Current()+d, 1), n)
	if next == s.Current() {
		return false
	}
	s.step = next
	if next == n {
		s.step = 0
	}
	return true
}

// Playing reports whether the log is being played step by step.
func (s *Session) Playing() bool { return s.playing }

// Play starts playing the log, from the first step when the latest is on
// screen. A log with nothing to play leaves playback off.
func (s *Session) Play() bool {
	n := s.Steps()
	if n < 2 {
		s.playing = false
		return false
	}
	if s.Current() >= n {
		s.step = 1
	}
	s.playing = true
	return true
}

// Pause stops playback.
func (s *Session) Pause() { s.playing = false }

// Tick advances playback by one step and stops it at the end. It reports
// whether playback goes on.
func (s *Session) Tick() bool {
	if !s.playing {
		return false
	}
	if !s.StepBy(1) || s.step == 0 {
		s.playing = false
	}
	return s.playing
}

// Zoom shows pages first..last in the grid.
func (s *Session) Zoom(first, last int) error {
	if first < 0 || last >= s.cfg.PagesOf(engine.ServerDecode) || first > last {
		return fmt.Errorf("page range %d–%d: out of range", first, last)
	}
	s.zoomFirst, s.zoomLast = first, last
	return nil
}

// ZoomOut shows the whole pool.
func (s *Session) ZoomOut() { s.zoomFirst, s.zoomLast = 0, s.cfg.PagesOf(engine.ServerDecode)-1 }

// snapshot is the pool at the selected step.
func (s *Session) snapshot() *engine.Snapshot {
	if s.step == 0 {
		return s.eng.Snapshot()
	}
	snap, err := s.eng.ViewAt(s.step) // one snapshot at a time: memo.go keeps only the current one
	if err != nil {
		return s.eng.Snapshot()
	}
	return snap
}
