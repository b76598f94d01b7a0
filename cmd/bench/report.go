package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"kvleak/engine"
	"kvleak/internal/benchkit"
)

// poolBytes is the launch preset's pools' own size: prefill's 681,280 and
// decode's 1,048,576 pages of 1 token, each with a holder, a writer and a
// free-list entry (3 × int32).
const poolBytes = (engine.GLMLaunchPoolTokens + engine.GLMDecodePoolTokens) * 12

// budgets are the limits. "MB" is 10^6 bytes.
var budgets = budgetsFor(1000)

func budgetsFor(memSends int) []benchkit.Budget {
	return []benchkit.Budget{
		{Key: "first_visit_bytes", Label: "first visit bytes over the wire (brotli)", Limit: 1_150_000, Unit: "bytes"},
		{Key: "fcp_loopback_ms", Label: "FCP, loopback", Limit: 500, Unit: "ms"},
		{Key: "interactive_loopback_ms", Label: "interactive, loopback", Limit: 600, Unit: "ms"},
		{Key: "interactive_over_goapp", Label: "interactive, loopback, ÷ go-app's smallest page (same run)", Limit: 1.05, Unit: "×"},
		{Key: "interactive_throttled_ms", Label: "interactive, throttled 9 Mbit/s / 40 ms", Limit: 1500, Unit: "ms"},
		{Key: "interactive_repeat_ms", Label: "repeat visit (service worker), interactive", Limit: 300, Unit: "ms"},
		{Key: "repeat_wasm_served_bytes", Label: "repeat visit, app.wasm bytes over the wire", Limit: 0, Unit: "bytes"},
		{Key: "send_demo_ms", Label: "Send → grid+verdict painted, demo", Limit: 16, Unit: "ms"},
		{Key: "send_glm_ms", Label: "Send → grid+verdict painted, glm-launch", Limit: 100, Unit: "ms"},
		{Key: "step_demo_ms", Label: "Step → painted, demo", Limit: 16, Unit: "ms"},
		{Key: "scrub_demo_ms", Label: "scrubber move → pipeline and pool painted, demo", Limit: 16, Unit: "ms"},
		{Key: "scrub_glm_ms", Label: "scrubber move → pipeline and pool painted, glm-launch", Limit: 50, Unit: "ms"},
		// Issue 49's goal: a move at launch scale within 1.5× the demo's.
		{Key: "scrub_glm_over_demo", Label: "scrubber move, glm-launch ÷ demo (same run)", Limit: 1.5, Unit: "×"},
		{Key: "pool_map_draw_ms", Label: "drawing decode's pool map, glm-launch", Limit: 16, Unit: "ms"},
		{Key: "replay_hour_ms", Label: "Mooncake's conversation hour replayed in the page", Limit: 5000, Unit: "ms"},
		{Key: "replay_slice_ms", Label: "the longest the hour's replay holds the page's thread", Limit: 100, Unit: "ms"},
		// The tab's renderer: the sum also holds renderers the page does not use.
		{Key: "renderer_largest_private_dirty_load_bytes", Label: "renderer memory at ready (Private_Dirty, the tab's)", Limit: 60_000_000, Unit: "bytes"},
		{Key: "wasm_memory_growth_bytes", Label: "wasm memory growth over " + engine.Thousands(int64(memSends)) + " requests (≤ the pools)", Limit: poolBytes, Unit: "bytes"},
		// Issue 53's goal: the tour answers before the engine arrives.
		{Key: "phone_first_card_ms", Label: "phone: a tap on Take the tour → first card painted, before the engine", Limit: 1000, Unit: "ms"},
	}
}

// metric is one measured quantity and how to read it from a run.
type metric struct {
	key, label, unit string
	get              func(r runResult) float64
}

// section groups metrics in the table.
type section struct {
	title   string
	metrics []metric
}

func sum[T any](xs []T, f func(T) float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += f(x)
	}
	return s
}

func orNaN(v float64) float64 {
	if v < 0 {
		return math.NaN()
	}
	return v
}

func timings(ts []timing, f func(timing) float64) []float64 {
	out := make([]float64, len(ts))
	for i, t := range ts {
		out[i] = f(t)
	}
	return out
}

var (
	byPainted = func(t timing) float64 { return t.Painted }
	byDOM     = func(t timing) float64 { return t.DOM }
	byHandler = func(t timing) float64 { return t.Handler }
)

func medianOf(ts []timing, f func(timing) float64) float64 { return benchkit.Median(timings(ts, f)) }

func p90Of(ts []timing, f func(timing) float64) float64 {
	return benchkit.Percentile(timings(ts, f), 90)
}

func firstN(ts []timing, n int) []timing { return ts[:min(n, len(ts))] }
func lastN(ts []timing, n int) []timing  { return ts[max(0, len(ts)-n):] }

func largest(reqs []netRequest) netRequest {
	var best netRequest
	for _, r := range reqs {
		if r.Encoded > best.Encoded {
			best = r
		}
	}
	return best
}

// wasmServedBytes is the app.wasm body bytes (any encoding) the server
// sent, or NaN for a visit that did not happen.
func wasmServedBytes(s []served, visited bool) float64 {
	if !visited {
		return math.NaN()
	}
	n := 0.0
	for _, x := range s {
		if strings.HasSuffix(x.Path, "/web/app.wasm") {
			n += float64(x.Bytes)
		}
	}
	return n
}

func wasmDownloads(s []served) float64 {
	n := 0.0
	for _, x := range s {
		if strings.HasSuffix(x.Path, "/web/app.wasm") && x.Status == 200 {
			n++
		}
	}
	return n
}

func loadMetrics(suffix string, v func(r runResult) visit) []metric {
	return []metric{
		{"fcp_" + suffix + "_ms", "first contentful paint", "ms", func(r runResult) float64 { return orNaN(v(r).Times.FCP) }},
		{"wasm_request_" + suffix + "_ms", "app.wasm request starts (resource timing)", "ms", func(r runResult) float64 { return orNaN(v(r).Times.WasmRequest) }},
		{"wasm_response_end_" + suffix + "_ms", "app.wasm last byte", "ms", func(r runResult) float64 { return orNaN(v(r).Times.WasmResponseEnd) }},
		{"wasm_start_" + suffix + "_ms", "the page asks to compile app.wasm", "ms", func(r runResult) float64 { return orNaN(v(r).Times.InstStart) }},
		{"wasm_instantiated_" + suffix + "_ms", "app.wasm compiled + instantiated", "ms", func(r runResult) float64 { return orNaN(v(r).Times.InstEnd) }},
		{"interactive_" + suffix + "_ms", "interactive (data-ready appears)", "ms", func(r runResult) float64 { return orNaN(v(r).Times.Ready) }},
		{"interactive_frame_" + suffix + "_ms", "interactive, next frame", "ms", func(r runResult) float64 { return orNaN(v(r).Times.ReadyFrame) }},
	}
}

func sendMetrics(scale string, ts func(r runResult) []timing) []metric {
	return []metric{
		{"send_" + scale + "_ms", "Send → painted (median of the run)", "ms", func(r runResult) float64 { return medianOf(ts(r), byPainted) }},
		{"send_" + scale + "_p90_ms", "Send → painted, p90 of the run", "ms", func(r runResult) float64 { return p90Of(ts(r), byPainted) }},
		{"send_" + scale + "_handler_ms", "  of which the click handler (engine send, URL)", "ms", func(r runResult) float64 { return medianOf(ts(r), byHandler) }},
		{"send_" + scale + "_dom_ms", "  click → DOM updated (+frame tick, render, diff)", "ms", func(r runResult) float64 { return medianOf(ts(r), byDOM) }},
	}
}

func sections(memSends int) []section {
	loop := func(r runResult) visit { return r.Loopback }
	thr := func(r runResult) visit { return r.Throttled }
	rep := func(r runResult) visit { return r.Repeat }
	many := engine.Thousands(int64(memSends))
	return []section{
		{"Bytes (cold first visit, loopback)", []metric{
			{"first_visit_bytes", "over the wire (Σ encodedDataLength)", "bytes", func(r runResult) float64 {
				return sum(r.Loopback.Requests, func(q netRequest) float64 { return q.Encoded })
			}},
			{"first_visit_requests", "requests of the page", "", func(r runResult) float64 { return float64(len(r.Loopback.Requests)) }},
			{"largest_resource_bytes", "largest resource", "bytes", func(r runResult) float64 { return largest(r.Loopback.Requests).Encoded }},
			{"served_bytes_with_sw", "bodies the server sent, service worker included", "bytes", func(r runResult) float64 { return sum(r.Served, func(s served) float64 { return float64(s.Bytes) }) }},
			{"wasm_downloads", "full app.wasm downloads (page + service worker)", "", func(r runResult) float64 { return wasmDownloads(r.Served) }},
			{"first_visit_bytes_throttled", "over the wire, throttled visit", "bytes", func(r runResult) float64 {
				return sum(r.Throttled.Requests, func(q netRequest) float64 { return q.Encoded })
			}},
			{"wasm_downloads_throttled", "full app.wasm downloads, throttled visit", "", func(r runResult) float64 { return wasmDownloads(r.ServedThrottled) }},
		}},
		{"Load, loopback (ms from navigation start)", loadMetrics("loopback", loop)},
		{"Load, throttled 9 Mbit/s down, 1 Mbit/s up, 40 ms", loadMetrics("throttled", thr)},
		{"Repeat visit, loopback (service worker installed)", append(loadMetrics("repeat", rep),
			metric{"repeat_served_bytes", "bodies the server sent", "bytes", func(r runResult) float64 {
				return orNaNUnless(r.SWCached, sum(r.ServedRepeat, func(s served) float64 { return float64(s.Bytes) }))
			}},
			metric{"repeat_wasm_served_bytes", "  of which app.wasm", "bytes", func(r runResult) float64 { return wasmServedBytes(r.ServedRepeat, r.SWCached) }},
		)},
		{fmt.Sprintf("Phone, cold (%d×%d, CPU ÷%d, %.1f Mbit/s down, %.1f ms; the first %d runs; taps before the engine)",
			phoneW, phoneH, phoneCPU, phoneDown*8/1e6, phoneLatency, phoneRuns), []metric{
			{"phone_verdict_ms", "verdict painted (Element Timing)", "ms", func(r runResult) float64 { return orNaN(r.Phone.Verdict) }},
			{"phone_parsed_ms", "page parsed, the tour's states with it (DOMContentLoaded)", "ms", func(r runResult) float64 { return orNaN(r.Phone.Parsed) }},
			{"phone_first_card_ms", "tap on Take the tour → first card painted", "ms", func(r runResult) float64 { return r.Phone.FirstCard }},
			{"phone_next_card_ms", "tap on Next → second card painted", "ms", func(r runResult) float64 { return r.Phone.NextCard }},
			{"phone_interactive_ms", "engine interactive (data-ready appears)", "ms", func(r runResult) float64 { return orNaN(r.Phone.Ready) }},
			{"phone_same_card", "the engine took over at the reader's card (1 yes)", "", func(r runResult) float64 {
				return orNaNUnless(r.Phone.Ready >= 0, map[bool]float64{true: 1, false: 0}[r.Phone.SameCard])
			}},
		}},
		{"Interaction, demo scale (default page)", append(sendMetrics("demo", func(r runResult) []timing { return r.SendDemo }),
			metric{"step_demo_ms", "Step (Back, Next) → painted", "ms", func(r runResult) float64 { return medianOf(r.StepDemo, byPainted) }},
			metric{"scrub_demo_ms", "scrubber move → pipeline and pool painted", "ms", func(r runResult) float64 { return medianOf(r.ScrubDemo, byPainted) }},
		)},
		{"Interaction, glm-launch (prefill 681,280 pages, decode 1,048,576)", append([]metric{
			{"preset_glm_ms", "picking the preset → painted", "ms", func(r runResult) float64 { return medianOf(r.PresetSwitch, byPainted) }},
		}, append(sendMetrics("glm", func(r runResult) []timing { return r.SendGLM }),
			metric{"send_glm_loop_first20_ms", "Send → painted, first 20 of the " + many, "ms", func(r runResult) float64 { return orEmpty(firstN(r.MemLoop, 20)) }},
			metric{"send_glm_loop_last20_ms", "Send → painted, last 20 of the " + many, "ms", func(r runResult) float64 { return orEmpty(lastN(r.MemLoop, 20)) }},
			metric{"scrub_glm_ms", "scrubber move → pipeline and pool painted", "ms", func(r runResult) float64 { return medianOf(r.ScrubGLM, byPainted) }},
			metric{"scrub_glm_over_demo", "  ÷ the demo's, in the same run", "×", scrubRatio},
			metric{"pool_map_draw_ms", "drawing the pool map (User Timing, median)", "ms", func(r runResult) float64 { return medianOrNaN(r.MapDraws) }},
		)...)},
		{"Replay of Mooncake's conversation hour (12,031 requests; context 131,072, prefill pool 100,000)", []metric{
			{"replay_hour_ms", "press → result (the panel's data-elapsed-ms)", "ms", func(r runResult) float64 { return orNaN(r.ReplayHour.ElapsedMs) }},
			{"replay_slice_ms", "longest slice of work between frames (data-longest-slice-ms)", "ms", func(r runResult) float64 { return orNaN(r.ReplayHour.LongestSliceMs) }},
		}},
		{"Start-up beside the reference pages (loopback, cold; cmd/bench/floor)", floorMetrics()},
		{"Memory at glm-launch (after gc())", []metric{
			{"renderer_private_dirty_load_bytes", "renderer Private_Dirty after load (demo)", "bytes", func(r runResult) float64 { return r.RendererMem.PrivateDirty }},
			{"renderer_processes_load", "  renderer processes summed", "", func(r runResult) float64 { return float64(r.RendererMem.Processes) }},
			{"renderer_largest_private_dirty_load_bytes", "  the largest of them (the tab's)", "bytes", func(r runResult) float64 { return r.RendererMem.Largest }},
			{"wasm_memory_load_bytes", "wasm memory after load (demo)", "bytes", func(r runResult) float64 { return orNaN(r.MemLoad.WasmMemory) }},
			{"wasm_memory_before_bytes", "wasm memory at glm-launch", "bytes", func(r runResult) float64 { return orNaN(r.MemGLM.WasmMemory) }},
			{"wasm_memory_after_bytes", "wasm memory after " + many + " requests", "bytes", func(r runResult) float64 { return memAfter(r, r.MemAfter.WasmMemory) }},
			{"wasm_memory_growth_bytes", "wasm memory growth", "bytes", func(r runResult) float64 { return memAfter(r, r.MemAfter.WasmMemory-r.MemGLM.WasmMemory) }},
			{"js_heap_load_bytes", "JS heap used after load (demo)", "bytes", func(r runResult) float64 { return orNaN(r.MemLoad.JSHeapUsed) }},
			{"js_heap_before_bytes", "JS heap used at glm-launch", "bytes", func(r runResult) float64 { return orNaN(r.MemGLM.JSHeapUsed) }},
			{"js_heap_after_bytes", "JS heap used after " + many + " requests", "bytes", func(r runResult) float64 { return memAfter(r, r.MemAfter.JSHeapUsed) }},
			{"js_heap_growth_bytes", "JS heap growth", "bytes", func(r runResult) float64 { return memAfter(r, r.MemAfter.JSHeapUsed-r.MemGLM.JSHeapUsed) }},
			{"dom_nodes_after", "DOM elements after " + many + " requests", "", func(r runResult) float64 { return memAfter(r, r.MemAfter.DOMNodes) }},
			{"url_bytes_after", "address bar (permalink) length after " + many, "bytes", func(r runResult) float64 { return memAfter(r, r.MemAfter.URLBytes) }},
		}},
	}
}

// scrubRatio is a run's median scrubber move at glm-launch over its median
// at the demo scale: both scales' moves share the run's machine.
func scrubRatio(r runResult) float64 {
	demo := medianOf(r.ScrubDemo, byPainted)
	if !(demo > 0) {
		return math.NaN()
	}
	return medianOf(r.ScrubGLM, byPainted) / demo
}

// floorMetrics are each reference page's figures, the playground's beside
// them, and the ratios of each run (a ratio of one run's figures, measured
// minutes apart, shares that run's machine).
func floorMetrics() []metric {
	var ms []metric
	for _, name := range floorPages {
		get := func(f func(floorResult) float64) func(r runResult) float64 {
			return func(r runResult) float64 {
				fr, ok := r.Floor[name]
				if !ok {
					return math.NaN()
				}
				return f(fr)
			}
		}
		ms = append(ms,
			metric{"floor_" + name + "_bytes", name + ": over the wire", "bytes", get(func(f floorResult) float64 {
				return sum(f.Load.Requests, func(q netRequest) float64 { return q.Encoded })
			})},
			metric{"floor_" + name + "_fcp_ms", name + ": first contentful paint", "ms", get(func(f floorResult) float64 { return orNaN(f.Load.Times.FCP) })},
			metric{"floor_" + name + "_interactive_ms", name + ": interactive (#send, no loader)", "ms", get(func(f floorResult) float64 { return orNaN(f.Load.Times.Ready) })},
			metric{"floor_" + name + "_send_ms", name + ": click → painted", "ms", get(func(f floorResult) float64 { return medianOf(f.Send, byPainted) })},
			metric{"floor_" + name + "_renderer_bytes", name + ": renderer memory at ready (the tab's)", "bytes", get(func(f floorResult) float64 { return f.Renderer.Largest })},
		)
	}
	ratio := func(name string) func(r runResult) float64 {
		return func(r runResult) float64 {
			fr, ok := r.Floor[name]
			if !ok || fr.Load.Times.Ready <= 0 {
				return math.NaN()
			}
			return orNaN(r.Loopback.Times.Ready) / fr.Load.Times.Ready
		}
	}
	return append(ms,
		metric{"interactive_over_goapp", "playground's interactive ÷ go-app's smallest page's", "×", ratio("goapp")},
		metric{"interactive_over_plain", "playground's interactive ÷ the plain Go page's", "×", ratio("plain")},
	)
}

func orNaNUnless(ok bool, v float64) float64 {
	if !ok {
		return math.NaN()
	}
	return v
}

// medianOrNaN is the median of xs, NaN (not measured) when empty.
func medianOrNaN(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return benchkit.Median(xs)
}

func orEmpty(ts []timing) float64 {
	if len(ts) == 0 {
		return math.NaN()
	}
	return medianOf(ts, byPainted)
}

// memAfter is v when the run did the memory loop.
func memAfter(r runResult, v float64) float64 {
	if len(r.MemLoop) == 0 {
		return math.NaN()
	}
	return v
}

// report is build/bench.json. Keys are stable: add, never rename.
type report struct {
	Schema   int    `json:"schema"`
	Date     string `json:"date"`
	Commit   string `json:"commit"`
	Dirty    bool   `json:"dirty"`
	Cores    int    `json:"cores"`
	GOOS     string `json:"goos"`
	GOARCH   string `json:"goarch"`
	Go       string `json:"go"`
	Chromium string `json:"chromium"`
	Site     struct {
		Dir    string `json:"dir"`
		Prefix string `json:"prefix"`
		Built  string `json:"built"`
	} `json:"site"`
	Runs     int `json:"runs"`
	Sends    int `json:"sends"`
	MemSends int `json:"mem_sends"`
	Throttle struct {
		DownBytesPerSec int `json:"down_bytes_per_s"`
		UpBytesPerSec   int `json:"up_bytes_per_s"`
		LatencyMs       int `json:"latency_ms"`
	} `json:"throttle"`
	Wasm struct {
		Raw    int64 `json:"raw_bytes"`
		Gzip   int64 `json:"gzip_bytes"`
		Brotli int64 `json:"brotli_bytes"`
	} `json:"wasm"`
	PoolBytes int `json:"pool_bytes"`
	// 1-minute load average when the measurements started and ended: a
	// busy machine makes every timing noisy.
	LoadAvg struct {
		Start *float64 `json:"start"`
		End   *float64 `json:"end"`
	} `json:"load_avg"`
	Metrics         map[string]benchkit.Series `json:"metrics"`
	LargestResource string                     `json:"largest_resource"`
	Budgets         []benchkit.Verdict         `json:"budgets"`
	GoBench         []benchkit.GoBench         `json:"go_bench"`
	Profile         []benchkit.FuncTime        `json:"profile,omitempty"`
	ProfileDemo     []benchkit.FuncTime        `json:"profile_demo,omitempty"`
	ProfileStart    []benchkit.FuncTime        `json:"profile_start,omitempty"`
	ProfileScrub    []benchkit.FuncTime        `json:"profile_scrub,omitempty"`
	// Per run: each timed send's ms from click to painted, and the median
	// of each block of 100 sends of the memory loop (latency drift as the
	// run's log grows).
	Timings []runTimings `json:"timings"`
	// The first run's requests, as the page and the server saw them.
	FirstVisit struct {
		Requests []netRequest `json:"requests"`
		Served   []served     `json:"served"`
	} `json:"first_visit"`

	secs []section
}

func newReport(cfg config, st site) *report {
	r := &report{Schema: 1, Date: time.Now().UTC().Format(time.RFC3339), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Go: runtime.Version(),
		Runs: cfg.runs, Sends: cfg.sends, MemSends: cfg.memSends, PoolBytes: poolBytes, Metrics: map[string]benchkit.Series{},
		GoBench: []benchkit.GoBench{}, Budgets: []benchkit.Verdict{}}
	r.Site.Dir, r.Site.Prefix = st.dir, st.prefix
	if !st.built.IsZero() {
		r.Site.Built = st.built.UTC().Format(time.RFC3339)
	}
	r.Throttle.DownBytesPerSec, r.Throttle.UpBytesPerSec, r.Throttle.LatencyMs = throttleDown, throttleUp, throttleLatency
	r.Wasm.Raw, r.Wasm.Gzip, r.Wasm.Brotli = st.wasmRaw, st.wasmGz, st.wasmBr
	r.secs = sections(cfg.memSends)
	if cfg.phone { // nothing else is measured: no zeros that pass a budget
		r.secs = slices.DeleteFunc(r.secs, func(s section) bool { return !strings.HasPrefix(s.title, "Phone") })
	}
	return r
}

func (r *report) aggregate(runs []runResult) {
	for _, s := range r.secs {
		for _, m := range s.metrics {
			vals := make([]float64, len(runs))
			for i, run := range runs {
				vals[i] = m.get(run)
			}
			r.Metrics[m.key] = benchkit.NewSeries(m.unit, vals)
		}
	}
	r.Timings = make([]runTimings, len(runs))
	for i, run := range runs {
		r.Timings[i] = runTimings{SendDemo: timings(run.SendDemo, byPainted), SendGLM: timings(run.SendGLM, byPainted), MemLoopDrift: blockMedians(run.MemLoop, 100)}
	}
	if len(runs) > 0 {
		r.LargestResource = largest(runs[0].Loopback.Requests).URL
		r.FirstVisit.Requests, r.FirstVisit.Served = runs[0].Loopback.Requests, runs[0].Served
		r.Profile = runs[0].Profile[:min(len(runs[0].Profile), 40)]
		r.ProfileDemo = runs[0].ProfileDemo[:min(len(runs[0].ProfileDemo), 40)]
		r.ProfileStart = runs[0].ProfileStart[:min(len(runs[0].ProfileStart), 40)]
		r.ProfileScrub = runs[0].ProfileScrub[:min(len(runs[0].ProfileScrub), 40)]
	}
}

type runTimings struct {
	SendDemo     []float64 `json:"send_demo_ms"`
	SendGLM      []float64 `json:"send_glm_ms"`
	MemLoopDrift []float64 `json:"mem_loop_per_100_ms"`
}

func blockMedians(ts []timing, block int) []float64 {
	out := []float64{}
	for i := 0; i < len(ts); i += block {
		out = append(out, medianOf(ts[i:min(i+block, len(ts))], byPainted))
	}
	return out
}

func (r *report) value(key string) float64 {
	if s, ok := r.Metrics[key]; ok {
		return s.Median
	}
	return math.NaN()
}

func (r *report) evaluate() { r.Budgets = benchkit.Evaluate(budgetsFor(r.MemSends), r.value) }

// loadAvg is the 1-minute load average (Linux), or NaN.
func loadAvg() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return math.NaN()
	}
	var v float64
	if _, err := fmt.Sscan(string(b), &v); err != nil {
		return math.NaN()
	}
	return v
}

func (r *report) write(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func (r *report) printTable(w io.Writer) {
	commit := r.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if r.Dirty {
		commit += " (+uncommitted changes)"
	}
	fmt.Fprintf(w, "\nkvleak bench · %s · commit %s · %d cores · %s · %s\n", r.Date, commit, r.Cores, r.Chromium, r.Go)
	fmt.Fprintf(w, "%d cold runs (fresh browser profile each), %d timed sends per scale, %s requests for memory.\n",
		r.Runs, r.Sends, engine.Thousands(int64(r.MemSends)))
	fmt.Fprintf(w, "Median over the runs [min – max]; a Send row is the median of its run's sends.\n")
	if l := max(deref(r.LoadAvg.Start), deref(r.LoadAvg.End)); l > 0.5*float64(r.Cores) {
		fmt.Fprintf(w, "NOTE: the machine was busy (load average up to %.1f on %d cores): timings are noisy.\n", l, r.Cores)
	}

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\napp.wasm\t%s raw\t%s gzip\t%s brotli\n", benchkit.Format(float64(r.Wasm.Raw), "bytes"),
		benchkit.Format(float64(r.Wasm.Gzip), "bytes"), benchkit.Format(float64(r.Wasm.Brotli), "bytes"))
	for _, s := range r.secs {
		fmt.Fprintf(tw, "\n%s\t\t\n", s.title)
		for _, m := range s.metrics {
			ser := r.Metrics[m.key]
			rng := ""
			if ser.OK() && len(ser.Runs) > 1 {
				rng = "[" + benchkit.Format(ser.Min, m.unit) + " – " + benchkit.Format(ser.Max, m.unit) + "]"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", m.label, benchkit.Format(ser.Median, m.unit), rng)
		}
		if strings.HasPrefix(s.title, "Bytes") && r.LargestResource != "" {
			fmt.Fprintf(tw, "  largest resource is\t%s\t\n", r.LargestResource)
		}
	}
	tw.Flush()

	if len(r.GoBench) > 0 {
		fmt.Fprintf(w, "\nEngine Go benchmarks (go %s; median of %d)\n", strings.Join(goBenchArgs, " "), r.GoBench[0].Samples)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		for _, g := range r.GoBench {
			fmt.Fprintf(tw, "  %s\t", strings.TrimPrefix(g.Name, "Benchmark"))
			for _, u := range g.Units() {
				fmt.Fprintf(tw, "%s\t", benchkit.Format(g.Medians[u], u))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}

	for _, p := range []struct {
		what string
		fs   []benchkit.FuncTime
	}{{"start (navigation to interactive)", r.ProfileStart}, {"timed sends at the demo scale", r.ProfileDemo}, {"timed sends at glm-launch", r.Profile}, {"timed scrubber moves at glm-launch", r.ProfileScrub}} {
		if len(p.fs) == 0 {
			continue
		}
		fmt.Fprintf(w, "\nCPU profile of the %s (run 1), by total time\n", p.what)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "  function\ttotal\tself\n")
		for _, f := range p.fs[:min(len(p.fs), 25)] {
			fmt.Fprintf(tw, "  %s\t%.1f ms\t%.1f ms\n", clipName(f.Func, 90), f.Total, f.Self)
		}
		tw.Flush()
	}

	fmt.Fprintf(w, "\nBudgets\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  \tmedian\tbudget\tstatus\n")
	for _, v := range r.Budgets {
		status := string(v.Status)
		if h := v.Headroom(); !math.IsNaN(h) {
			status += fmt.Sprintf(" (%.0f%%)", h*100)
		}
		fmt.Fprintf(tw, "  %s\t%s\t≤ %s\t%s\n", v.Label, benchkit.Format(v.Value, v.Unit), benchkit.Format(v.Limit, v.Unit), status)
	}
	tw.Flush()
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func finitePtr(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

func clipName(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
