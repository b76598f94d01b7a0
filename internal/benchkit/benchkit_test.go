package benchkit

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMedian(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		in   []float64
		want float64
	}{
		{"odd", []float64{5, 1, 3}, 3},
		{"even", []float64{4, 1, 3, 2}, 2.5},
		{"one", []float64{7}, 7},
		{"NaNs ignored", []float64{nan, 9, 1, nan, 5}, 5},
		{"duplicates", []float64{2, 2, 2, 9}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.Equal(t, tc.want, Median(tc.in)) })
	}
	assert.True(t, math.IsNaN(Median(nil)), "empty")
	assert.True(t, math.IsNaN(Median([]float64{nan})), "only NaN")

	in := []float64{3, 1, 2}
	Median(in)
	assert.Equal(t, []float64{3, 1, 2}, in, "the input is not reordered")
}

func TestPercentile(t *testing.T) {
	xs := []float64{10, 20, 30, 40, 50}
	assert.Equal(t, 10.0, Percentile(xs, 0))
	assert.Equal(t, 30.0, Percentile(xs, 50))
	assert.Equal(t, 50.0, Percentile(xs, 100))
	assert.Equal(t, 45.0, Percentile(xs, 87.5))
	assert.Equal(t, 50.0, Percentile(xs, 150), "clamped")
	assert.True(t, math.IsNaN(Percentile(nil, 50)))
}

func TestSeries(t *testing.T) {
	s := NewSeries("ms", []float64{30, math.NaN(), 10, 20})
	assert.Equal(t, []float64{30, 10, 20}, s.Runs, "NaN runs dropped, order kept")
	assert.Equal(t, 20.0, s.Median)
	assert.Equal(t, 10.0, s.Min)
	assert.Equal(t, 30.0, s.Max)
	assert.True(t, math.IsInf(s.Lo, -1) && math.IsInf(s.Hi, 1), "3 runs bound no 95%% interval: %v %v", s.Lo, s.Hi)
	assert.True(t, s.OK())

	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, `{"unit":"ms","median":20,"ci_lo":null,"ci_hi":null,"min":10,"max":30,"runs":[30,10,20]}`, string(b))

	empty := NewSeries("bytes", nil)
	assert.False(t, empty.OK())
	b, err = json.Marshal(empty)
	require.NoError(t, err, "NaN must not break the JSON")
	assert.JSONEq(t, `{"unit":"bytes","median":null,"ci_lo":null,"ci_hi":null,"min":null,"max":null,"runs":[]}`, string(b))
}

// The median's interval is one of order statistics: the k-th smallest to
// the k-th largest run, the narrowest whose binomial coverage is ≥ 95%.
func TestSeriesConfidenceInterval(t *testing.T) {
	// 6 runs: [1st, 6th] covers 1 − 2·0.5⁶ = 96.9%.
	s := NewSeries("ms", []float64{60, 10, 50, 20, 40, 30})
	assert.Equal(t, []float64{35, 10, 60}, []float64{s.Median, s.Lo, s.Hi})
	// 5 runs: [1st, 5th] covers only 93.8%; (−∞, 5th] covers 1 − 0.5⁵ = 96.9%.
	s = NewSeries("ms", []float64{1, 2, 3, 4, 5})
	assert.True(t, math.IsInf(s.Lo, -1), "%v", s.Lo)
	assert.Equal(t, 5.0, s.Hi)

	// 10 runs: [2nd, 9th] covers 1 − 2·11/1024 = 97.9%; [3rd, 8th] only 89%.
	s = NewSeries("ms", []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1})
	assert.Equal(t, []float64{5.5, 2, 9}, []float64{s.Median, s.Lo, s.Hi})
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"ci_lo":2,"ci_hi":9,`)
}

// engine.bench.txt is real output of
// go test -run XXX -bench SendRequest -benchtime 100x -count 3 ./engine/
// on 2 cores.
func TestReadGoBenchRealOutput(t *testing.T) {
	f, err := os.Open("testdata/engine.bench.txt")
	require.NoError(t, err)
	defer f.Close()
	g, err := ReadGoBench(f)
	require.NoError(t, err)

	names := make([]string, len(g))
	for i, b := range g {
		names[i] = b.Name
		assert.Equal(t, 3, b.Samples, b.Name)
		assert.Equal(t, []string{"ns/op", "B/op", "allocs/op"}, b.Units(), "go test's units, not benchfmt's sec/op")
	}
	assert.Equal(t, []string{
		"BenchmarkSendRequest/dpool=85160/page=1",
		"BenchmarkSendRequest/dpool=681280/page=1",
		"BenchmarkSendRequest/dpool=681280/page=64",
		"BenchmarkSendRequest/dpool=4193280/page=1",
	}, names, "first-seen order, without the -2 of GOMAXPROCS")
	assert.Equal(t, map[string]float64{"ns/op": 19309, "B/op": 11983, "allocs/op": 152}, g[0].Medians)
	assert.Equal(t, map[string]float64{"ns/op": 31699, "B/op": 11871, "allocs/op": 133}, g[2].Medians)
	assert.Equal(t, 13453.0, g[3].Medians["ns/op"])
}

func TestReadGoBenchCustomUnits(t *testing.T) {
	const out = `goos: linux
BenchmarkCells
    bench_test.go:12: some log line
BenchmarkCells-2   	     363	   3290011 ns/op	  412000 B/op	    2051 allocs/op
BenchmarkCells-2   	     360	   3300000 ns/op	  412000 B/op	    2051 allocs/op
--- BENCH: BenchmarkCells-2
BenchmarkSnapshotAt 	     100	  10000000 ns/op	  5450240 B/op	       4 allocs/op	        12.5 pages/ms	  80 ns/page	 3.5 MB/s
PASS
ok  	kvleak/engine	12.345s
`
	g, err := ReadGoBench(strings.NewReader(out))
	require.NoError(t, err)
	require.Len(t, g, 2)
	assert.Equal(t, "BenchmarkCells", g[0].Name)
	assert.Equal(t, 2, g[0].Samples)
	assert.Equal(t, 3295005.5, g[0].Medians["ns/op"], "even count: mean of the middle two")
	assert.Equal(t, "BenchmarkSnapshotAt", g[1].Name, "no suffix when GOMAXPROCS is 1")
	assert.Equal(t, []string{"ns/op", "B/op", "allocs/op", "MB/s", "ns/page", "pages/ms"}, g[1].Units())
	assert.Equal(t, 12.5, g[1].Medians["pages/ms"])
	assert.Equal(t, 80.0, g[1].Medians["ns/page"], "as printed, not tidied to sec/page")
	assert.Equal(t, 3.5, g[1].Medians["MB/s"])
}

func TestReadGoBenchRejectsGarbledLines(t *testing.T) {
	for _, in := range []string{
		"BenchmarkX-2  lots  12 ns/op\n",
		"BenchmarkX-2  100  12 ns/op 7\n",
		"BenchmarkX-2  100  fast ns/op\n",
		"BenchmarkX-2  100\n",
	} {
		_, err := ReadGoBench(strings.NewReader("goos: linux\n" + in))
		assert.ErrorContains(t, err, "go test -bench:2: ", in)
	}
	g, err := ReadGoBench(strings.NewReader("BenchmarkY\n--- FAIL: BenchmarkY\nFAIL\n"))
	require.NoError(t, err)
	assert.Empty(t, g)
}

func TestBudgets(t *testing.T) {
	b := Budget{Key: "fcp", Label: "FCP", Limit: 500, Unit: "ms"}
	assert.Equal(t, Pass, b.Check(499.9))
	assert.Equal(t, Pass, b.Check(500), "the limit is inclusive")
	assert.Equal(t, Over, b.Check(500.1))
	assert.Equal(t, NA, b.Check(math.NaN()))

	vals := map[string]float64{"fcp": 120, "bytes": 2e6}
	got := Evaluate([]Budget{b, {Key: "bytes", Limit: 1.5e6, Unit: "bytes"}, {Key: "missing", Limit: 1}},
		func(k string) float64 {
			if v, ok := vals[k]; ok {
				return v
			}
			return math.NaN()
		})
	require.Len(t, got, 3)
	assert.Equal(t, []Status{Pass, Over, NA}, []Status{got[0].Status, got[1].Status, got[2].Status})
	assert.InDelta(t, 0.24, got[0].Headroom(), 1e-9)
	assert.InDelta(t, 2e6/1.5e6, got[1].Headroom(), 1e-9)
	assert.True(t, math.IsNaN(got[2].Headroom()))

	j, err := json.Marshal(got[2])
	require.NoError(t, err)
	assert.JSONEq(t, `{"key":"missing","label":"","unit":"","value":null,"limit":1,"status":"N/A"}`, string(j))
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "1,645,290 B (1.65 MB)", Format(1645290, "bytes"))
	assert.Equal(t, "4,396 B", Format(4396, "bytes"))
	assert.Equal(t, "12.3 ms", Format(12.34, "ms"))
	assert.Equal(t, "1234 ms", Format(1234.4, "ms"))
	assert.Equal(t, "3.29 ms/op", Format(3.29e6, "ns/op"))
	assert.Equal(t, "1.1 µs/op", Format(1105, "ns/op"))
	assert.Equal(t, "336 B/op", Format(336, "B/op"))
	assert.Equal(t, "—", Format(math.NaN(), "ms"))
}

func TestSummarizeProfile(t *testing.T) {
	// root → main → {render → diff, send}; render calls itself once.
	nodes := []ProfNode{
		{ID: 1, Func: "(root)", Children: []int64{2}},
		{ID: 2, Func: "main", Children: []int64{3, 5}},
		{ID: 3, Func: "render", Children: []int64{4, 6}},
		{ID: 4, Func: "diff"},
		{ID: 5, Func: "send"},
		{ID: 6, Func: "render"},
	}
	// Sample i lasts deltas[i+1] µs; the last one gets the median delta.
	samples := []int64{4, 4, 5, 6, 2}
	deltas := []int64{0, 1000, 1000, 2000, 1000}
	got := SummarizeProfile(nodes, samples, deltas)
	byName := map[string]FuncTime{}
	for _, f := range got {
		byName[f.Func] = f
	}
	assert.Equal(t, FuncTime{"(root)", 0, 6}, byName["(root)"])
	assert.Equal(t, FuncTime{"main", 1, 6}, byName["main"])
	assert.Equal(t, FuncTime{"diff", 2, 2}, byName["diff"])
	assert.Equal(t, FuncTime{"send", 2, 2}, byName["send"])
	assert.Equal(t, FuncTime{"render", 1, 3}, byName["render"], "recursion counted once per sample")
	assert.Equal(t, []string{"main", "(root)", "render"}, []string{got[0].Func, got[1].Func, got[2].Func},
		"sorted by total, a tie broken by self")
}
