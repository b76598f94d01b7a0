package model

import "testing"

// BenchmarkScrubLaunch is the model's share of a scrubber move at the
// launch scale (681,280 pages): the snapshot at the step and the pool
// panel's views of it (map, grid, note), moving between the middle step
// and the one before the latest as cmd/bench's "scrub" does, in a drag
// (HoldNames).
func BenchmarkScrubLaunch(b *testing.B) {
	s := NewSession()
	if err := s.LoadPreset("glm-launch"); err != nil {
		b.Fatal(err)
	}
	last := len(s.Engine().Log().Copy())
	steps := [2]int{max(1, last/2), max(1, last-1)}
	s.HoldNames(true)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.ScrubTo(steps[i%2]); err != nil {
			b.Fatal(err)
		}
		i++
		_ = s.PoolPanel(MaxGridCells)
	}
}
