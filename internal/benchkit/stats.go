// Package benchkit holds the pure parts of cmd/bench: statistics over
// repeated runs, parsing `go test -bench` output, and checking numbers
// against the performance budgets. Nothing here touches a browser.
package benchkit

import (
	"encoding/json"
	"math"
	"slices"

	"golang.org/x/perf/benchmath"
)

// Confidence is the level asked of benchmath for a median's confidence
// interval. The interval is one of order statistics, so its actual level
// is at least this; below 6 values it is unbounded.
const Confidence = 0.95

// sample is xs without NaNs, as a benchmath sample (sorted, a copy: the
// caller's slice keeps its order); nil when nothing is left.
func sample(xs []float64) *benchmath.Sample {
	v := dropNaN(xs)
	if len(v) == 0 {
		return nil
	}
	return benchmath.NewSample(v, &benchmath.DefaultThresholds)
}

func dropNaN(xs []float64) []float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	return v
}

// summarize is benchmath's median of s and its confidence interval,
// assuming nothing of the distribution; NaN throughout for no sample.
func summarize(s *benchmath.Sample) benchmath.Summary {
	if s == nil {
		return benchmath.Summary{Center: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
	}
	return benchmath.AssumeNothing.Summary(s, Confidence)
}

// Median is the median of xs (the mean of the two middle values for an
// even count), ignoring NaNs. It is NaN when nothing is left.
func Median(xs []float64) float64 { return summarize(sample(xs)).Center }

// Percentile is the p-th percentile (0..100) of xs by linear interpolation
// between closest ranks, ignoring NaNs; NaN when nothing is left.
// benchmath has no quantile but the median, so this one stays.
func Percentile(xs []float64, p float64) float64 {
	v := dropNaN(xs)
	if len(v) == 0 || math.IsNaN(p) {
		return math.NaN()
	}
	slices.Sort(v)
	p = min(max(p, 0), 100)
	pos := p / 100 * float64(len(v)-1)
	lo := int(math.Floor(pos))
	hi := int(math.Ceil(pos))
	return v[lo] + (v[hi]-v[lo])*(pos-float64(lo))
}

// Series is one measured quantity over the cold runs: the per-run values,
// their median with its confidence interval (Lo, Hi; see Confidence),
// and their range. Per-run values that are themselves medians (e.g. of 20
// sends) are stored as such.
type Series struct {
	Unit   string    `json:"unit"`
	Median float64   `json:"median"`
	Lo     float64   `json:"ci_lo"`
	Hi     float64   `json:"ci_hi"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Runs   []float64 `json:"runs"`
}

// NewSeries summarises per-run values. NaN entries (a run that could not
// measure this) are dropped from Runs and from the statistics.
func NewSeries(unit string, runs []float64) Series {
	s := Series{Unit: unit, Runs: dropNaN(runs), Min: math.NaN(), Max: math.NaN()}
	smp := sample(s.Runs)
	sum := summarize(smp)
	s.Median, s.Lo, s.Hi = sum.Center, sum.Lo, sum.Hi
	if smp != nil {
		s.Min, s.Max = smp.Values[0], smp.Values[len(smp.Values)-1]
	}
	return s
}

// OK reports whether the series has at least one value.
func (s Series) OK() bool { return len(s.Runs) > 0 }

// MarshalJSON writes NaN and infinite statistics (no runs; an unbounded
// interval) as null: JSON has neither.
func (s Series) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Unit   string    `json:"unit"`
		Median *float64  `json:"median"`
		Lo     *float64  `json:"ci_lo"`
		Hi     *float64  `json:"ci_hi"`
		Min    *float64  `json:"min"`
		Max    *float64  `json:"max"`
		Runs   []float64 `json:"runs"`
	}{s.Unit, finite(s.Median), finite(s.Lo), finite(s.Hi), finite(s.Min), finite(s.Max), s.Runs})
}

// finite is x, or nil for NaN and ±Inf.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
