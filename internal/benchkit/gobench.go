package benchkit

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GoBenchLine is one result line of `go test -bench`: the benchmark's name
// without the -GOMAXPROCS suffix, its iteration count and its metrics by
// unit ("ns/op", "B/op", "allocs/op", or a custom b.ReportMetric unit).
type GoBenchLine struct {
	Name       string
	Procs      int
	Iterations int64
	Metrics    map[string]float64
}

// procsSuffix is the "-8" that go test appends for GOMAXPROCS > 1.
var procsSuffix = regexp.MustCompile(`-(\d+)$`)

// ParseGoBench reads `go test -bench` output and returns its result lines
// in order. Anything that is not a result line (goos:, PASS, ok, log
// output) is skipped; a line that starts like a result but does not parse
// is an error, so a format change is noticed rather than read as nothing.
func ParseGoBench(r io.Reader) ([]GoBenchLine, error) {
	var out []GoBenchLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		f := strings.Fields(line)
		// "BenchmarkX-2  <iters>  <value> <unit> ..."; a bare name with no
		// fields is the header go test prints before a sub-benchmark's
		// results or before a failure message.
		if len(f) < 2 {
			continue
		}
		iters, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			// e.g. "BenchmarkFoo: some log output" from b.Log.
			if strings.HasSuffix(f[0], ":") || strings.HasSuffix(f[0], "---") {
				continue
			}
			return nil, fmt.Errorf("line %d: %q: iteration count %q is not a number", n, line, f[1])
		}
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("line %d: %q: values and units do not pair up", n, line)
		}
		b := GoBenchLine{Name: f[0], Procs: 1, Iterations: iters, Metrics: map[string]float64{}}
		if m := procsSuffix.FindStringSubmatch(f[0]); m != nil {
			b.Name = strings.TrimSuffix(f[0], m[0])
			b.Procs, _ = strconv.Atoi(m[1])
		}
		for i := 2; i < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %q: value %q is not a number", n, line, f[i])
			}
			b.Metrics[f[i+1]] = v
		}
		out = append(out, b)
	}
	return out, sc.Err()
}

// GoBench is the median of each metric over a benchmark's -count samples.
type GoBench struct {
	Name    string             `json:"name"`
	Samples int                `json:"samples"`
	Medians map[string]float64 `json:"medians"`
}

// GoBenchMedians groups lines by benchmark name, in first-seen order.
func GoBenchMedians(lines []GoBenchLine) []GoBench {
	var order []string
	byName := map[string][]GoBenchLine{}
	for _, l := range lines {
		if _, ok := byName[l.Name]; !ok {
			order = append(order, l.Name)
		}
		byName[l.Name] = append(byName[l.Name], l)
	}
	out := make([]GoBench, 0, len(order))
	for _, name := range order {
		ls := byName[name]
		units := map[string][]float64{}
		for _, l := range ls {
			for u, v := range l.Metrics {
				units[u] = append(units[u], v)
			}
		}
		g := GoBench{Name: name, Samples: len(ls), Medians: map[string]float64{}}
		for u, vs := range units {
			g.Medians[u] = Median(vs)
		}
		out = append(out, g)
	}
	return out
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
