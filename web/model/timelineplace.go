package model

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kvleak/engine"
)

// PlacedMark is one item of the scrubber's marks: the starts, or the ends,
// that fall in one percent of the timeline. A long run puts many requests
// in a percent; as one item each they made a band of overlapping labels
// (and, at 1,000 requests, 2,000 elements the browser styled and laid out
// at every Send). A run has at most 101 of each.
type PlacedMark struct {
	At    int    // its place on the timeline, in percent
	End   bool   // it marks ends (responses), on the lower row
	Step  int    // its first mark's step
	Label string // one mark's label, or its requests' range and what they returned
	Shown bool   // its label fits beside its row's others on any track that shows labels; else it is a tick, the label kept for screen readers and as its title
	Wide  bool   // its label fits on a wide track (app.css shows it in a window of 1,134 px or more); true when Shown
	Leak  bool   // one of its responses leaked
}

// ScrubMarks is the scrubber's marks placed on the timeline, kept while
// the marks and the timeline's length are the same (a step moves none).
func (s *Session) ScrubMarks() []PlacedMark {
	marks, of := s.Timeline(), s.Steps()
	k := placedKey{eng: s.eng, marks: len(marks), of: of}
	if s.memo.placedKey != k || s.memo.placed == nil {
		s.memo.placedKey, s.memo.placed = k, PlaceMarks(marks, of)
	}
	return s.memo.placed
}

type placedKey struct {
	eng       *engine.Engine
	marks, of int
}

// MarkAt is a step's place on a timeline of of steps, in percent.
func MarkAt(step, of int) int { return min(max((step-1)*100/max(of-1, 1), 0), 100) }

// PlaceMarks groups marks (in log order) by row and percent of a timeline
// of of steps, in the order of their first steps, and says which labels
// fit: a leak's first, then the others, each where it overlaps no label of
// its row already shown.
func PlaceMarks(marks []TimelineMark, of int) []PlacedMark {
	groups := make([]markGroup, 0, min(len(marks), 202))
	open := [2]int{-1, -1} // each row's last group
	for _, m := range marks {
		row, at := rowOf(m.End), MarkAt(m.Step, of)
		if g := open[row]; g >= 0 && groups[g].at == at {
			groups[g].add(m)
			continue
		}
		open[row] = len(groups)
		groups = append(groups, markGroup{at: at, first: m, lo: m.Request, hi: m.Request, n: 1, leaks: countLeak(m)})
	}
	placed := make([]PlacedMark, 0, len(groups))
	for _, g := range groups {
		placed = append(placed, PlacedMark{At: g.at, End: g.first.End, Step: g.first.Step, Label: g.label(), Leak: g.leaks > 0})
	}
	showLabels(placed)
	return placed
}

func rowOf(end bool) int {
	if end {
		return 1
	}
	return 0
}

func countLeak(m TimelineMark) int {
	if m.Leak {
		return 1
	}
	return 0
}

// markGroup is the marks of one row in one percent.
type markGroup struct {
	at       int
	first    TimelineMark
	lo, hi   int   // the requests' ids
	n, leaks int   // marks, and leaked responses among them
	statuses []int // the ends' statuses, in order of first appearance (set from the second end on)
}

func (g *markGroup) add(m TimelineMark) {
	g.lo, g.hi = min(g.lo, m.Request), max(g.hi, m.Request)
	g.n++
	g.leaks += countLeak(m)
	if !m.End {
		return
	}
	if len(g.statuses) == 0 {
		g.statuses = []int{g.first.Status}
	}
	if !slices.Contains(g.statuses, m.Status) {
		g.statuses = append(g.statuses, m.Status)
	}
}

// label is "r2 · B" or "r2 200 ⚠ leak" for one mark; for several, their
// range and count ("r120–r131 · 12 requests"), or at the end what they
// returned ("r120–r131 200/400 ⚠ 2 leaks").
func (g *markGroup) label() string {
	if g.n == 1 {
		return g.first.Label()
	}
	ids := "r" + strconv.Itoa(g.lo) + "–r" + strconv.Itoa(g.hi)
	if !g.first.End {
		return ids + " · " + strconv.Itoa(g.n) + " requests"
	}
	var b strings.Builder
	b.WriteString(ids + " ")
	for i, st := range g.statuses {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(strconv.Itoa(st))
	}
	switch {
	case g.leaks == 1:
		b.WriteString(" ⚠ 1 leak")
	case g.leaks > 1:
		b.WriteString(" ⚠ " + strconv.Itoa(g.leaks) + " leaks")
	}
	return b.String()
}

// labelScale is a label's room on a track, in half percents: the tick and
// padding before it, a character, and the sign a leak's tick shows ("⚠").
// Measured in Chromium: at most 7.2 px a character, 13 px the sign.
type labelScale struct{ pad, perRune, sign int }

var (
	// anyTrack fits the narrowest track that shows labels: 373 px, in a
	// 761 px window.
	anyTrack = labelScale{pad: 3, perRune: 4, sign: 7}
	// wideTrack fits a track of 746 px or more, in a window of 1,134 px.
	wideTrack = labelScale{pad: 2, perRune: 2, sign: 4}
)

// LabelFromRight is the percent from which a label runs left of its tick,
// so that it stays on the track (app.css's .mark-right).
const LabelFromRight = 90

// showLabels sets Shown on the marks whose labels fit on any track, then
// Wide on those that fit on a wide one besides.
func showLabels(placed []PlacedMark) {
	fits := make([]bool, len(placed))
	runes := make([]int, len(placed)) // each label's characters
	for i, p := range placed {
		runes[i] = utf8.RuneCountInString(p.Label)
	}
	var room labelRoom
	room.fit(placed, runes, anyTrack, fits, false)
	for i := range placed {
		placed[i].Shown = fits[i]
	}
	room = labelRoom{}
	room.fit(placed, runes, wideTrack, fits, true)
	for i := range placed {
		placed[i].Wide = fits[i]
	}
}

// labelRoom is a track's two rows by half percent: 1 + the index of the
// mark whose label or sign holds it, 0 where free.
type labelRoom [2][201]int32

// fit sets fits[i] when placed[i]'s label fits on a track of scale sc:
// those shown on any track first (keepShown), then leaks', then the rest,
// each in log order. A label runs right of its tick, or left of it in the
// last tenth of the timeline (app.css), and may not overlap a label of its
// row already placed, nor the sign of a leak's tick (reserved first).
func (r *labelRoom) fit(placed []PlacedMark, runes []int, sc labelScale, fits []bool, keepShown bool) {
	for i, p := range placed {
		fits[i] = false
		if p.Leak {
			lo, hi := sc.signSpan(p)
			r.take(p.End, i, lo, hi)
		}
	}
	for pass := range 3 {
		for i, p := range placed {
			if fits[i] || (pass == 0 && !(keepShown && p.Shown)) || (pass == 1 && !p.Leak) {
				continue
			}
			lo, hi := spanOf(p, sc.labelWidth(runes[i]))
			if lo >= 0 && hi <= 200 && r.free(p.End, i, lo, hi) {
				r.take(p.End, i, lo, hi)
				fits[i] = true
			}
		}
	}
}

func (r *labelRoom) take(end bool, i, lo, hi int) {
	row := &r[rowOf(end)]
	for x := lo; x <= hi; x++ {
		row[x] = int32(i + 1)
	}
}

// free reports whether the half percents lo to hi of a row are free or
// held by the i-th mark.
func (r *labelRoom) free(end bool, i, lo, hi int) bool {
	row := &r[rowOf(end)]
	for x := lo; x <= hi; x++ {
		if row[x] != 0 && row[x] != int32(i+1) {
			return false
		}
	}
	return true
}

// labelWidth is the half percents a label of n characters takes.
func (sc labelScale) labelWidth(n int) int { return sc.pad + sc.perRune*n }

// signSpan is the half percents the sign of a leak's tick covers, on the
// track.
func (sc labelScale) signSpan(p PlacedMark) (lo, hi int) {
	lo, hi = spanOf(p, sc.sign)
	return max(lo, 0), min(hi, 200)
}

func spanOf(p PlacedMark, w int) (lo, hi int) {
	at := 2 * p.At
	if p.At >= LabelFromRight {
		return at - w, at
	}
	return at, at + w
}
