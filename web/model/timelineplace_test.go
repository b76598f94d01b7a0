package model

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheDemosMarksAreEachShownWithTheirLabels(t *testing.T) {
	s := NewSession()
	assert.Equal(t, []PlacedMark{
		{At: 0, Step: 1, Label: "r1 · A", Shown: true, Wide: true},
		{At: 43, End: true, Step: 11, Label: "r1 200", Shown: true, Wide: true},
		{At: 52, Step: 13, Label: "r2 · B", Shown: true, Wide: true},
		{At: 95, End: true, Step: 23, Label: "r2 200 ⚠ leak", Shown: true, Wide: true, Leak: true},
	}, s.ScrubMarks())
}

// longRun is n requests of tenants A and B, each three steps long, every
// seventh response a leak and every fifth refused.
func longRun(n int) (marks []TimelineMark, of int) {
	for r := 1; r <= n; r++ {
		tenant := "A"
		if r%2 == 0 {
			tenant = "B"
		}
		status := 200
		if r%5 == 0 {
			status = 400
		}
		marks = append(marks,
			TimelineMark{Step: 3*r - 2, Request: r, Tenant: tenant},
			TimelineMark{Step: 3 * r, Request: r, Tenant: tenant, End: true, Status: status, Leak: r%7 == 0})
	}
	return marks, 3 * n
}

// A long run's marks are grouped by percent, one item per row and percent,
// and every mark is in the item at its place, its request in the item's
// range; the leaks are flagged and counted.
func TestALongRunsMarksAreGroupedByPercent(t *testing.T) {
	marks, of := longRun(1000)
	placed := PlaceMarks(marks, of)
	assert.LessOrEqual(t, len(placed), 202)
	at := map[[2]int]PlacedMark{}
	for i, p := range placed {
		k := [2]int{rowOf(p.End), p.At}
		_, dup := at[k]
		require.False(t, dup, "one item per row and percent: %+v", p)
		at[k] = p
		if i > 0 {
			assert.Greater(t, p.Step, placed[i-1].Step, "in the order of their first steps")
		}
	}
	leaks := map[[2]int]int{}
	for _, m := range marks {
		k := [2]int{rowOf(m.End), MarkAt(m.Step, of)}
		p, ok := at[k]
		require.True(t, ok, "mark %+v has its item", m)
		lo, hi := idRange(t, p.Label)
		assert.True(t, lo <= m.Request && m.Request <= hi, "r%d in %q", m.Request, p.Label)
		if m.Leak {
			leaks[k]++
			assert.True(t, p.Leak, "%q holds r%d's leak", p.Label, m.Request)
		}
	}
	for k, n := range leaks {
		assert.Contains(t, at[k].Label, "⚠ "+strconv.Itoa(n)+" leak", "the item counts its leaks")
	}
	assert.Equal(t, PlacedMark{At: 0, Step: 1, Label: "r1–r10 · 10 requests", Shown: true, Wide: true}, placed[0])
	assert.Equal(t, PlacedMark{At: 0, End: true, Step: 3, Label: "r1–r10 200/400 ⚠ 1 leak", Leak: true}, placed[1], "a leak in every percent: a row of signs, no room for a label")
	assert.Equal(t, PlacedMark{At: 1, Step: 31, Label: "r11–r20 · 10 requests"}, placed[2], "no room beside the first")
	assert.Equal(t, "r21–r30 200/400 ⚠ 2 leaks", placed[5].Label)
}

// idRange reads "r3 …" or "r3–r9 …".
func idRange(t *testing.T, label string) (lo, hi int) {
	t.Helper()
	ids, _, _ := strings.Cut(label, " ")
	a, b, isRange := strings.Cut(ids, "–")
	lo, err := strconv.Atoi(strings.TrimPrefix(a, "r"))
	require.NoError(t, err, label)
	if !isRange {
		return lo, lo
	}
	hi, err = strconv.Atoi(strings.TrimPrefix(b, "r"))
	require.NoError(t, err, label)
	return lo, hi
}

// Labels placed never overlap in their row, on either track, nor cover a
// leak's sign, and a leak's label is placed before any other: a leak's
// item is a tick only where another leak (or, on a wide track, a label
// placed on any track) holds its room. A wide track shows more.
func TestShownLabelsFitAndLeaksComeFirst(t *testing.T) {
	for _, n := range []int{2, 10, 30, 100, 250, 1000} {
		marks, of := longRun(n)
		placed := PlaceMarks(marks, of)
		shown, wide := 0, 0
		for _, p := range placed {
			assert.True(t, !p.Shown || p.Wide, "n=%d: %q shown on any track is shown on a wide one", n, p.Label)
			shown += countTrue(p.Shown)
			wide += countTrue(p.Wide)
		}
		checkLabels(t, n, placed, anyTrack, func(p PlacedMark) bool { return p.Shown }, func(PlacedMark) bool { return false })
		checkLabels(t, n, placed, wideTrack, func(p PlacedMark) bool { return p.Wide }, func(p PlacedMark) bool { return p.Shown })
		t.Logf("n=%d: %d items, %d labels on any track, %d on a wide one", n, len(placed), shown, wide)
		if n >= 30 && n <= 100 {
			assert.Greater(t, wide, shown, "n=%d: a wide track shows more labels", n)
		}
	}
	// An end with no leak just before a leak's, in the last tenth where
	// labels run left: the leak's label wins the room.
	marks := []TimelineMark{
		{Step: 92, Request: 1, Tenant: "A", End: true, Status: 200},
		{Step: 96, Request: 2, Tenant: "B", End: true, Status: 200, Leak: true},
	}
	placed := PlaceMarks(marks, 101)
	assert.False(t, placed[0].Shown, "the plain end gives way")
	assert.True(t, placed[1].Shown, "the leak is labelled")
}

func countTrue(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkLabels checks the labels placed on a track of scale sc (placed),
// where those of first went before the leaks'.
func checkLabels(t *testing.T, n int, marks []PlacedMark, sc labelScale, placed, first func(PlacedMark) bool) {
	t.Helper()
	var rows [2][201]int
	for _, p := range marks {
		if !placed(p) {
			continue
		}
		lo, hi := sc.labelSpan(p)
		require.True(t, lo >= 0 && hi <= 200, "n=%d: %q stays on the track", n, p.Label)
		for x := lo; x <= hi; x++ {
			rows[rowOf(p.End)][x]++
			require.Equal(t, 1, rows[rowOf(p.End)][x], "n=%d: %q overlaps another label", n, p.Label)
		}
	}
	overlap := func(alo, ahi, blo, bhi int) bool { return alo <= bhi && blo <= ahi }
	for i, p := range marks {
		if !p.Leak {
			continue
		}
		lo, hi := sc.labelSpan(p)
		slo, shi := sc.signSpan(p)
		blocked := lo < 0 || hi > 200 // off the track
		for j, q := range marks {
			if j == i || q.End != p.End {
				continue
			}
			qlo, qhi := sc.labelSpan(q)
			if placed(q) {
				assert.False(t, overlap(qlo, qhi, slo, shi), "n=%d: %q covers the sign of leak %q", n, q.Label, p.Label)
				blocked = blocked || ((q.Leak || first(q)) && overlap(qlo, qhi, lo, hi))
			}
			if q.Leak {
				glo, ghi := sc.signSpan(q)
				blocked = blocked || overlap(glo, ghi, lo, hi)
			}
		}
		if !placed(p) {
			assert.True(t, blocked, "n=%d: leak %q is a tick only where another holds its room", n, p.Label)
		}
	}
}

func TestScrubMarksAreKeptUntilTheMarksOrTheTimelineChange(t *testing.T) {
	s := NewSession()
	first := s.ScrubMarks()
	require.NoError(t, s.SelectStep(3))
	same := s.ScrubMarks()
	assert.Same(t, &first[0], &same[0], "a step keeps the placed marks")
	require.NoError(t, s.Send())
	assert.Equal(t, PlaceMarks(s.Timeline(), s.Steps()), s.ScrubMarks())
	assert.NotEqual(t, first, s.ScrubMarks(), "a Send places them again")
	require.NoError(t, s.LoadPreset("glm-launch"))
	assert.Equal(t, PlaceMarks(s.Timeline(), s.Steps()), s.ScrubMarks(), "another run places its own")
}

func TestMarkAtStaysOnTheTimeline(t *testing.T) {
	assert.Equal(t, 0, MarkAt(1, 1), "a one-step timeline")
	assert.Equal(t, 0, MarkAt(1, 0))
	assert.Equal(t, 100, MarkAt(21, 21))
	assert.Equal(t, 50, MarkAt(11, 21))
	assert.Equal(t, 100, MarkAt(30, 21), "clamped")
	assert.Equal(t, 0, MarkAt(-4, 21), "clamped")
}

// labelSpan is the half percents p's label covers on a track of scale sc,
// as PlaceMarks reckons it.
func (sc labelScale) labelSpan(p PlacedMark) (lo, hi int) {
	return spanOf(p, sc.labelWidth(utf8.RuneCountInString(p.Label)))
}
