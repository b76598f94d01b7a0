package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/benchkit"
)

func TestParseFlagsDefaults(t *testing.T) {
	c, err := parseFlags(nil, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, config{runs: 5, sends: 20, memSends: 1000, site: "build/site", floor: "build/floor", out: "build/bench.json", timeout: 30 * time.Minute}, c)

	c, err = parseFlags([]string{"-runs", "7", "-sends", "3", "-site", "x", "-out", "y.json", "-skip-go", "-mem-sends", "0"}, io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 7, c.runs)
	assert.Equal(t, 3, c.sends)
	assert.Equal(t, 0, c.memSends)
	assert.True(t, c.skipGo)
	assert.Equal(t, "x", c.site)
	assert.Equal(t, "y.json", c.out)
}

func TestBadFlagsExit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-runs", "0"}, "invalid -runs 0"},
		{[]string{"-runs", "five"}, `invalid value "five" for flag -runs`},
		{[]string{"-sends", "-1"}, "invalid -sends -1"},
		{[]string{"-mem-sends", "20000"}, "invalid -mem-sends 20000"},
		{[]string{"-site", ""}, "invalid -site: empty"},
		{[]string{"-out", ""}, "invalid -out: empty"},
		{[]string{"-timeout", "0s"}, "invalid -timeout"},
		{[]string{"-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		assert.Equal(t, exitUsage, code, tc.args)
		assert.Contains(t, stderr.String(), tc.msg, tc.args)
		assert.True(t, strings.HasPrefix(stderr.String(), "bench: "), "one bench: line")
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line")
		assert.Empty(t, stdout.String())
	}
}

func TestHelpExits0(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, exitOK, run(context.Background(), []string{"-h"}, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "-runs")
	assert.Contains(t, stderr.String(), "-skip-go")
}

func TestMissingSiteExits1(t *testing.T) {
	var stderr bytes.Buffer
	code := run(context.Background(), []string{"-site", filepath.Join(t.TempDir(), "nope"), "-skip-go"}, io.Discard, &stderr)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr.String(), "run `make site` first")
}

func TestOpenSite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	write("index.html", `<html><link rel="manifest" href="/kvleak/manifest.webmanifest"></html>`)
	_, err := openSite(dir)
	assert.ErrorContains(t, err, "web/app.wasm", "the wasm is required")
	write("web/app.wasm", "0123456789")
	write("web/app.wasm.gz", "01234")
	write("web/app.wasm.br", "012")
	s, err := openSite(dir)
	require.NoError(t, err)
	assert.Equal(t, "/kvleak", s.prefix)
	assert.Equal(t, []int64{10, 5, 3}, []int64{s.wasmRaw, s.wasmGz, s.wasmBr})
}

func TestTallyCountsBodies(t *testing.T) {
	tl := &tally{}
	h := tl.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Encoding", "br")
		w.Write([]byte("hello"))
		w.Write([]byte(" world"))
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, p := range []string{"/web/app.wasm", "/missing"} {
		res, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	got := tl.take()
	require.Len(t, got, 2)
	assert.Equal(t, served{Path: "/web/app.wasm", Status: 200, Encoding: "br", Bytes: 11}, got[0])
	assert.Equal(t, 404, got[1].Status)
	assert.Empty(t, tl.take(), "take empties the log")
	assert.Equal(t, 1.0, wasmDownloads(got))
}

func TestStripLeadingComments(t *testing.T) {
	assert.Equal(t, "async (n) => n", stripLeadingComments("// doc\n//  more\n\nasync (n) => n"))
	for name, src := range map[string]string{"hook": hookJS, "ready": readyJS, "act": actJS, "memory": memoryJS, "swcached": swCachedJS} {
		body := strings.TrimSpace(stripLeadingComments(src))
		assert.NotEmpty(t, body, name)
		assert.False(t, strings.HasPrefix(body, "//"), name)
	}
}

func TestProfilePath(t *testing.T) {
	assert.Equal(t, "build/p-demo.cpuprofile", profilePath("build/p.cpuprofile", "demo"))
	assert.Equal(t, "prof-scrub", profilePath("prof", "scrub"))
}

// -v says where a median action's time went: in the Go handler, or after
// it, in the browser's frame.
func TestPhasesAreEachPhasesMedian(t *testing.T) {
	ts := []timing{{Handler: 4, DOM: 4.2, Frame: 16, Painted: 12}, {Handler: 9, DOM: 9.1, Frame: 17, Painted: 21}, {Handler: 5, DOM: 5, Frame: 30, Painted: 14}}
	assert.Equal(t, "handler 5.0, DOM 5.0, frame 17.0, painted 14.0 ms", phases(ts))
}

func TestTimingStats(t *testing.T) {
	ts := make([]timing, 250)
	for i := range ts {
		ts[i] = timing{Painted: float64(i)}
	}
	assert.Equal(t, []float64{49.5, 149.5, 224.5}, blockMedians(ts, 100))
	assert.Equal(t, 9.5, orEmpty(firstN(ts, 20)))
	assert.Equal(t, 239.5, orEmpty(lastN(ts, 20)))
	assert.True(t, math.IsNaN(orEmpty(nil)))
	assert.Equal(t, []float64{}, blockMedians(nil, 100))
}

func TestBudgetsCoverTheIssue(t *testing.T) {
	keys := map[string]bool{}
	for _, s := range sections(1000) {
		for _, m := range s.metrics {
			assert.False(t, keys[m.key], "duplicate metric key %s", m.key)
			keys[m.key] = true
		}
	}
	for _, b := range budgetsFor(1000) {
		assert.True(t, keys[b.Key], "budget %s has a metric", b.Key)
	}
	assert.Len(t, budgets, 19)
	assert.Contains(t, budgetsFor(250)[17].Label, "250 requests")
	assert.Equal(t, 20_758_272, poolBytes, "both launch pools, 12 bytes a page")
}

// The scrub's ratio is each run's own (glm-launch's median over the demo's
// of the same run), its median over the runs the budget's figure; a run
// with no demo moves has none.
func TestTheScrubRatioIsEachRunsOwn(t *testing.T) {
	moves := func(ms ...float64) []timing {
		ts := make([]timing, len(ms))
		for i, m := range ms {
			ts[i] = timing{Painted: m}
		}
		return ts
	}
	runs := []runResult{
		{ScrubDemo: moves(10, 12, 11), ScrubGLM: moves(16, 14, 15)}, // 15 / 11
		{ScrubDemo: moves(20, 20, 20), ScrubGLM: moves(26, 26, 26)}, // 1.3
		{ScrubDemo: moves(10), ScrubGLM: moves(30)},                 // 3
	}
	assert.InDelta(t, 15.0/11, scrubRatio(runs[0]), 1e-9)
	assert.True(t, math.IsNaN(scrubRatio(runResult{ScrubGLM: moves(5)})))
	rep := &report{Metrics: map[string]benchkit.Series{}, MemSends: 1000, secs: sections(1000)}
	rep.aggregate(runs)
	rep.evaluate()
	assert.InDelta(t, 15.0/11, rep.Metrics["scrub_glm_over_demo"].Median, 1e-9, "the median of the runs' ratios, not a ratio of medians (26 / 11)")
	i := slices.IndexFunc(rep.Budgets, func(v benchkit.Verdict) bool { return v.Key == "scrub_glm_over_demo" })
	require.GreaterOrEqual(t, i, 0, "a budget row")
	assert.Equal(t, benchkit.Pass, rep.Budgets[i].Status)
}

// A run whose service worker never cached the wasm has no repeat visit:
// its budgets must read N/A, not pass on zeros.
func TestRepeatVisitNotMeasured(t *testing.T) {
	rep := &report{Metrics: map[string]benchkit.Series{}, MemSends: 1000, secs: sections(1000)}
	missed := runResult{Repeat: visit{Times: notLoaded}}
	done := runResult{SWCached: true, Repeat: visit{Times: loadTimes{Ready: 250}},
		ServedRepeat: []served{{Path: "/index.html", Status: 200, Bytes: 900}, {Path: "/web/app.wasm", Status: 200, Bytes: 40}}}
	rep.aggregate([]runResult{missed})
	rep.evaluate()
	for _, v := range rep.Budgets {
		if strings.Contains(v.Key, "repeat") {
			assert.Equal(t, benchkit.NA, v.Status, v.Key)
		}
	}
	rep.aggregate([]runResult{done})
	assert.Equal(t, 250.0, rep.value("interactive_repeat_ms"))
	assert.Equal(t, 940.0, rep.value("repeat_served_bytes"))
	assert.Equal(t, 40.0, rep.value("repeat_wasm_served_bytes"))
}

// The table and bench.json from real `go test -bench` output and six runs'
// first paints.
func TestReportFromRealGoBench(t *testing.T) {
	f, err := os.Open("../../internal/benchkit/testdata/engine.bench.txt")
	require.NoError(t, err)
	defer f.Close()
	rep := newReport(config{runs: 6, sends: 20, memSends: 1000}, site{})
	rep.GoBench, err = benchkit.ReadGoBench(f)
	require.NoError(t, err)
	runs := make([]runResult, 6)
	for i := range runs {
		runs[i].Repeat.Times = notLoaded
		runs[i].Loopback.Times.FCP = float64(600 - 100*i)
	}
	rep.aggregate(runs)
	rep.evaluate()

	var table bytes.Buffer
	rep.printTable(&table)
	out := table.String()
	assert.Contains(t, out, "Engine Go benchmarks (go test -run ^$ -bench SendRequest|Cells|SnapshotAt -benchmem -count 5 ./engine/; median of 3)")
	assert.Regexp(t, `\n +SendRequest/dpool=85160/page=1 +19\.3 µs/op +11,983 B/op +152 allocs/op\n`, out)
	assert.Regexp(t, `\n +SendRequest/dpool=681280/page=64 +31\.7 µs/op +11,871 B/op +133 allocs/op\n`, out)
	assert.Regexp(t, `\n  first contentful paint +350 ms +\[100 ms – 600 ms\]\n`, out)
	assert.Regexp(t, `\n  FCP, loopback +350 ms +≤ 500 ms +PASS \(70%\)\n`, out)

	path := filepath.Join(t.TempDir(), "bench.json")
	require.NoError(t, rep.write(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var got struct {
		Metrics map[string]map[string]any `json:"metrics"`
		GoBench []benchkit.GoBench        `json:"go_bench"`
	}
	require.NoError(t, json.Unmarshal(b, &got))
	assert.Equal(t, map[string]any{"unit": "ms", "median": 350.0, "ci_lo": 100.0, "ci_hi": 600.0, "min": 100.0, "max": 600.0,
		"runs": []any{600.0, 500.0, 400.0, 300.0, 200.0, 100.0}}, got.Metrics["fcp_loopback_ms"])
	require.Len(t, got.GoBench, 4)
	assert.Equal(t, benchkit.GoBench{Name: "BenchmarkSendRequest/dpool=4193280/page=1", Samples: 3,
		Medians: map[string]float64{"ns/op": 13453, "B/op": 12028, "allocs/op": 152}}, got.GoBench[3])
}
