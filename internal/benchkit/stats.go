// Package benchkit holds the pure parts of cmd/bench: statistics over
// repeated runs, parsing `go test -bench` output, and checking numbers
// against the performance budgets. Nothing here touches a browser.
package benchkit

import (
	"encoding/json"
	"math"
	"slices"
)

// Median is the middle value of xs (the mean of the two middle values for
// an even count), ignoring NaNs. It is NaN when nothing is left.
func Median(xs []float64) float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	slices.Sort(v)
	m := len(v) / 2
	if len(v)%2 == 1 {
		return v[m]
	}
	return (v[m-1] + v[m]) / 2
}

// Percentile is the p-th percentile (0..100) of xs by linear interpolation
// between closest ranks, ignoring NaNs; NaN when nothing is left.
func Percentile(xs []float64, p float64) float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
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

// Series is one measured quantity over the cold runs: the per-run values
// and their median. Per-run values that are themselves medians (e.g. of 20
// sends) are stored as such.
type Series struct {
	Unit   string    `json:"unit"`
	Median float64   `json:"median"`
	Min    float64   `json:"min"`
	Max    float64   `json:"max"`
	Runs   []float64 `json:"runs"`
}

// NewSeries summarises per-run values. NaN entries (a run that could not
// measure this) are dropped from Runs and from the statistics.
func NewSeries(unit string, runs []float64) Series {
	s := Series{Unit: unit, Runs: []float64{}}
	for _, x := range runs {
		if !math.IsNaN(x) {
			s.Runs = append(s.Runs, x)
		}
	}
	s.Median = Median(s.Runs)
	s.Min, s.Max = math.NaN(), math.NaN()
	if len(s.Runs) > 0 {
		s.Min, s.Max = slices.Min(s.Runs), slices.Max(s.Runs)
	}
	return s
}

// OK reports whether the series has at least one value.
func (s Series) OK() bool { return len(s.Runs) > 0 }

// MarshalJSON writes NaN statistics (no runs) as null: JSON has no NaN.
func (s Series) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Unit   string    `json:"unit"`
		Median *float64  `json:"median"`
		Min    *float64  `json:"min"`
		Max    *float64  `json:"max"`
		Runs   []float64 `json:"runs"`
	}{s.Unit, finite(s.Median), finite(s.Min), finite(s.Max), s.Runs})
}

// finite is x, or nil for NaN and ±Inf.
func finite(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}
