package benchkit

import (
	"encoding/json"
	"math"
)

// Status is a budget row's outcome.
type Status string

const (
	Pass Status = "PASS" // measured and within the limit
	Over Status = "OVER" // measured and above the limit
	NA   Status = "N/A"  // not measured (skipped or failed)
)

// Budget is an upper limit on one measured quantity.
type Budget struct {
	Key   string  // the metric's key in the report
	Label string  // what a reader sees in the table
	Limit float64 // inclusive: a value equal to the limit passes
	Unit  string  // "bytes" or "ms"
}

// Check compares one value with the limit. NaN (not measured) is N/A.
func (b Budget) Check(v float64) Status {
	switch {
	case math.IsNaN(v):
		return NA
	case v <= b.Limit:
		return Pass
	}
	return Over
}

// Verdict is a budget checked against a measured value.
type Verdict struct {
	Budget
	Value  float64
	Status Status
}

// Evaluate checks every budget against the value values returns for its
// key (NaN when it has none).
func Evaluate(budgets []Budget, values func(key string) float64) []Verdict {
	out := make([]Verdict, len(budgets))
	for i, b := range budgets {
		v := values(b.Key)
		out[i] = Verdict{Budget: b, Value: v, Status: b.Check(v)}
	}
	return out
}

// Headroom is how much of the limit the value uses, as a fraction (1.0 is
// exactly at the limit); NaN when not measured or the limit is 0.
func (v Verdict) Headroom() float64 {
	if math.IsNaN(v.Value) || v.Limit == 0 {
		return math.NaN()
	}
	return v.Value / v.Limit
}

// MarshalJSON writes the verdict with stable keys and null for NaN.
func (v Verdict) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Key    string   `json:"key"`
		Label  string   `json:"label"`
		Unit   string   `json:"unit"`
		Value  *float64 `json:"value"`
		Limit  float64  `json:"limit"`
		Status Status   `json:"status"`
	}{v.Key, v.Label, v.Unit, finite(v.Value), v.Limit, v.Status})
}
