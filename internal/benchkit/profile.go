package benchkit

import (
	"cmp"
	"slices"
)

// ProfNode is one node of a sampled CPU profile (a Chrome .cpuprofile
// reduced to what the summary needs): a call site named Func, with child
// node ids.
type ProfNode struct {
	ID       int64
	Func     string // e.g. "main.(*engine).Send (app.wasm)"
	Children []int64
}

// FuncTime is a function's share of a profile.
type FuncTime struct {
	Func  string  `json:"func"`
	Self  float64 `json:"self_ms"`  // samples with the function on top
	Total float64 `json:"total_ms"` // samples with the function anywhere on the stack (counted once per sample)
}

// SummarizeProfile attributes each sample's time (deltas[i+1], the time
// until the next sample; the last sample gets the median delta) to the
// function on top (Self) and to every distinct function on its stack
// (Total). Times are in the unit of deltas divided by 1000 (µs → ms).
// Results are sorted by Total, then Self, then name.
func SummarizeProfile(nodes []ProfNode, samples []int64, deltas []int64) []FuncTime {
	parent := map[int64]int64{}
	byID := map[int64]*ProfNode{}
	for i := range nodes {
		n := &nodes[i]
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	fl := make([]float64, len(deltas))
	for i, d := range deltas {
		fl[i] = float64(d)
	}
	lastDelta := Median(fl)
	self := map[string]float64{}
	total := map[string]float64{}
	seen := map[string]bool{}
	for i, id := range samples {
		d := lastDelta
		if i+1 < len(deltas) {
			d = float64(deltas[i+1])
		}
		if d <= 0 {
			continue
		}
		n, ok := byID[id]
		if !ok {
			continue
		}
		self[n.Func] += d
		clear(seen)
		for cur, ok := id, true; ok; cur, ok = parent[cur] {
			f := byID[cur].Func
			if !seen[f] {
				seen[f] = true
				total[f] += d
			}
		}
	}
	out := make([]FuncTime, 0, len(total))
	for f, t := range total {
		out = append(out, FuncTime{Func: f, Self: self[f] / 1000, Total: t / 1000})
	}
	slices.SortFunc(out, func(a, b FuncTime) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), cmp.Compare(b.Self, a.Self), cmp.Compare(a.Func, b.Func))
	})
	return out
}
