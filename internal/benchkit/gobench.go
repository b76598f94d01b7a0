package benchkit

import (
	"bytes"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"
)

// GoBench is the median of each metric over a benchmark's -count samples.
type GoBench struct {
	Name    string             `json:"name"`
	Samples int                `json:"samples"`
	Medians map[string]float64 `json:"medians"`
}

// ReadGoBench reads `go test -bench` output with benchfmt and returns each
// benchmark's medians, in first-seen order. A benchmark is its full name
// ("BenchmarkX/sub=1") less the -GOMAXPROCS suffix; metrics are keyed by
// the unit go test printed ("ns/op", "B/op", "allocs/op", or a custom
// b.ReportMetric unit), not benchfmt's tidied one ("sec/op"). A line that
// benchfmt cannot parse is an error, so a format change is noticed rather
// than read as nothing.
func ReadGoBench(r io.Reader) ([]GoBench, error) {
	br := benchfmt.NewReader(r, "go test -bench")
	var out []GoBench
	index := map[string]int{}
	values := []map[string][]float64{}
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, rec
		case *benchfmt.Result:
			name := benchName(rec.Name)
			i, ok := index[name]
			if !ok {
				i = len(out)
				index[name] = i
				out = append(out, GoBench{Name: name, Medians: map[string]float64{}})
				values = append(values, map[string][]float64{})
			}
			out[i].Samples++
			for _, v := range rec.Values {
				unit, x := v.Unit, v.Value
				if v.OrigUnit != "" {
					unit, x = v.OrigUnit, v.OrigValue
				}
				values[i][unit] = append(values[i][unit], x)
			}
		}
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		for u, vs := range values[i] {
			out[i].Medians[u] = Median(vs)
		}
	}
	return out, nil
}

// benchName is n with go test's "Benchmark" prefix (which benchfmt drops)
// and without the GOMAXPROCS suffix.
func benchName(n benchfmt.Name) string {
	base, parts := n.Parts()
	if k := len(parts); k > 0 && parts[k-1][0] == '-' {
		parts = parts[:k-1]
	}
	return "Benchmark" + string(base) + string(bytes.Join(parts, nil))
}

// Units lists a result's units in a fixed, readable order: ns/op, B/op,
// allocs/op, then any custom units alphabetically.
func (g GoBench) Units() []string {
	std := []string{"ns/op", "B/op", "allocs/op"}
	var out, extra []string
	for _, u := range std {
		if _, ok := g.Medians[u]; ok {
			out = append(out, u)
		}
	}
	for u := range g.Medians {
		if !slices.Contains(std, u) {
			extra = append(extra, u)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}
