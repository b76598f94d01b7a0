package trace

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"go/build"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/demo.trace.json")

// MaxBytes bounds a preset's trace: runs of pages are counters, not events.
const maxBytes = 1 << 20

// file is a trace as encoding/json reads it: the test checks the exporter's
// hand-written JSON against the format, not against itself.
type file struct {
	TraceEvents     []map[string]any `json:"traceEvents"`
	DisplayTimeUnit string           `json:"displayTimeUnit"`
	OtherData       map[string]any   `json:"otherData"`
}

func export(t *testing.T, p engine.Preset) ([]byte, file) {
	t.Helper()
	data, err := Export(p.Slug, p.Config, p.Ops)
	require.NoError(t, err)
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&f), "the trace is JSON of the object form")
	return data, f
}

func number(t *testing.T, ev map[string]any, key string) float64 {
	t.Helper()
	v, ok := ev[key].(float64)
	require.True(t, ok, "%q is a number in %v", key, ev)
	return v
}

// slice is an X event's place, to bind flows to.
type slice struct {
	pid, tid   float64
	start, end float64
}

// Every preset's trace follows the format's rules, names its stages as the
// log does, and stays under 1 MB.
func TestEveryPresetsTraceIsValid(t *testing.T) {
	for _, p := range engine.Presets() {
		t.Run(p.Slug, func(t *testing.T) {
			data, f := export(t, p)
			t.Logf("%s: %d bytes, %d events", p.Slug, len(data), len(f.TraceEvents))
			assert.LessOrEqual(t, len(data), maxBytes)
			assert.Equal(t, "ms", f.DisplayTimeUnit)
			assert.Equal(t, TimeModel, f.OtherData["time_model"])
			assert.Equal(t, p.Slug, f.OtherData["run"])

			e, err := engine.Replay(p.Config, p.Ops)
			require.NoError(t, err)
			log := e.Log()
			stageSlices := map[int]int{} // log step → stage slices drawn for it
			var slices []slice
			flows := map[float64][]map[string]any{}
			named := map[[2]float64]bool{}
			var used [][2]float64
			processes := map[float64]string{}
			for _, ev := range f.TraceEvents {
				ph, ok := ev["ph"].(string)
				require.True(t, ok, "every event has ph: %v", ev)
				require.IsType(t, "", ev["name"], "every event has a name: %v", ev)
				number(t, ev, "ts")
				pid, tid := number(t, ev, "pid"), 0.0
				if ph == "C" || ph == "M" && strings.HasPrefix(ev["name"].(string), "process_") {
					assert.NotContains(t, ev, "tid", "a process's event has no thread: %v", ev)
				} else {
					tid = number(t, ev, "tid")
				}
				switch ph {
				case "M":
					args := ev["args"].(map[string]any)
					switch ev["name"] {
					case "process_name":
						processes[pid] = args["name"].(string)
					case "thread_name":
						named[[2]float64{pid, tid}] = true
					}
				case "X":
					dur := number(t, ev, "dur")
					assert.GreaterOrEqual(t, dur, 0.0)
					ts := ev["ts"].(float64)
					slices = append(slices, slice{pid, tid, ts, ts + dur})
					used = append(used, [2]float64{pid, tid})
					if ev["cat"] == "stage" {
						step := int(ev["args"].(map[string]any)["step"].(float64))
						require.True(t, step >= 1 && step <= log.Len(), "step %d", step)
						assert.Equal(t, string(log.At(step-1).Stage), ev["name"], "the slice of step %d is named as the log names it", step)
						assert.Equal(t, ts, float64(slot(step)))
						stageSlices[step]++
					}
				case "i":
					assert.Contains(t, []any{"t", "p", "g"}, ev["s"], "an instant's scope: %v", ev)
					used = append(used, [2]float64{pid, tid})
				case "s", "f":
					id := number(t, ev, "id")
					flows[id] = append(flows[id], ev)
					used = append(used, [2]float64{pid, tid})
				case "C":
					args, ok := ev["args"].(map[string]any)
					require.True(t, ok && len(args) > 0, "a counter has args: %v", ev)
					for k, v := range args {
						assert.IsType(t, 0.0, v, "counter %s's %s is numeric", ev["name"], k)
						assert.GreaterOrEqual(t, v, 0.0)
					}
				default:
					t.Errorf("unexpected phase %q", ph)
				}
			}
			assert.Equal(t, map[float64]string{1: ProcessClient, 2: ProcessRouter, 3: ProcessPrefill, 4: ProcessDecode}, processes)
			for _, u := range used {
				assert.True(t, named[u], "track %v is named", u)
			}
			for i := range log.Len() {
				assert.NotZero(t, stageSlices[i+1], "step %d (%s) has a slice", i+1, log.At(i).Stage)
			}
			inside := func(ev map[string]any) bool {
				ts, pid, tid := ev["ts"].(float64), ev["pid"].(float64), ev["tid"].(float64)
				for _, s := range slices {
					if s.pid == pid && s.tid == tid && s.start < ts && ts < s.end {
						return true
					}
				}
				return false
			}
			for id, ends := range flows {
				require.Len(t, ends, 2, "flow %v has one start and one finish", id)
				s, f := ends[0], ends[1]
				if s["ph"] == "f" {
					s, f = f, s
				}
				assert.Equal(t, "s", s["ph"], "flow %v starts once", id)
				assert.Equal(t, "f", f["ph"], "flow %v finishes once", id)
				assert.Equal(t, "e", f["bp"], "flow %v's finish binds to its enclosing slice", id)
				assert.NotEqual(t, s["pid"], f["pid"], "flow %v crosses processes", id)
				assert.Equal(t, float64(pidPrefill), s["pid"])
				assert.Equal(t, float64(pidDecode), f["pid"])
				assert.LessOrEqual(t, s["ts"], f["ts"])
				assert.True(t, inside(s) && inside(f), "flow %v's ends sit inside slices", id)
				assert.Equal(t, s["name"], f["name"])
				assert.Equal(t, s["cat"], f["cat"])
			}
		})
	}
}

// events returns a trace's events of phase ph named name.
func events(f file, ph, name string) []map[string]any {
	var out []map[string]any
	for _, ev := range f.TraceEvents {
		if ev["ph"] == ph && ev["name"] == name {
			out = append(out, ev)
		}
	}
	return out
}

func argsOf(ev map[string]any) map[string]any { return ev["args"].(map[string]any) }

func preset(t *testing.T, slug string) engine.Preset {
	p, ok := engine.PresetBySlug(slug)
	require.True(t, ok, slug)
	return p
}

// The demo's trace tells the incident: prefill's door sees a pending
// FINISH_ABORT and admits, one token crosses to decode, which attends over
// 125 positions, and the response carries the leak.
func TestDemoTellsTheLeak(t *testing.T) {
	_, f := export(t, preset(t, "demo"))

	var door map[string]any
	for _, ev := range events(f, "i", "admission door") {
		if ev["pid"] == float64(pidPrefill) && ev["tid"] == 2.0 {
			door = argsOf(ev)
		}
	}
	assert.Equal(t, map[string]any{"finished()": false, "to_finish": "FINISH_ABORT(400, BadRequestError)", "max_req_input_len": 122.0, "verdict": "admitted"}, door)

	flows := events(f, "s", "send_kv_chunk")
	require.Len(t, flows, 2)
	assert.Equal(t, map[string]any{"tokens_written": 120.0, "kv_committed_len": 120.0}, argsOf(flows[0]))
	assert.Equal(t, map[string]any{"tokens_written": 1.0, "kv_committed_len": 125.0}, argsOf(flows[1]))

	leaks := events(f, "i", "LEAK")
	require.Len(t, leaks, 1)
	assert.Equal(t, float64(pidDecode), leaks[0]["pid"])
	assert.Equal(t, 2.0, leaks[0]["tid"])
	assert.Equal(t, 7.0, argsOf(leaks[0])["leaked_pages"])
	var resp map[string]any
	for _, ev := range events(f, "X", "response") {
		if ev["tid"] == 2.0 {
			resp = argsOf(ev)
		}
	}
	assert.Equal(t, true, resp["leaked"])
	assert.Equal(t, 200.0, resp["status"])
	assert.Equal(t, 119.0, resp["foreign_tokens"])
	assert.Equal(t, "tenant A: 7 pages, 119 positions", resp["leaks"])
}

// The fixed door retires the request: its instant says so, and no KV moves.
func TestFixedDoorRetires(t *testing.T) {
	_, f := export(t, preset(t, "demo-fixed"))
	var verdicts []any
	for _, ev := range events(f, "i", "admission door") {
		if ev["tid"] == 2.0 {
			verdicts = append(verdicts, argsOf(ev)["verdict"])
		}
	}
	assert.Equal(t, []any{"retired with its 400: no KV sender, no KV receiver, no page", "retired with its 400: no KV sender, no KV receiver, no page"}, verdicts)
	assert.Len(t, events(f, "s", "send_kv_chunk"), 1, "only A's KV moves")
	assert.Empty(t, events(f, "i", "LEAK"))
}

// A late write flows from the cancelled request's prefill half into the
// victim's track on decode.
func TestLateWriteFlowsIntoTheVictim(t *testing.T) {
	_, f := export(t, preset(t, "late-write"))
	var late map[string]any
	for _, ev := range events(f, "s", "send_kv_chunk") {
		if ev["tid"] == 1.0 {
			late = ev
		}
	}
	require.NotNil(t, late)
	for _, ev := range events(f, "f", "send_kv_chunk") {
		if ev["id"] == late["id"] {
			assert.Equal(t, 3.0, ev["tid"], "the write lands in r3's pages")
		}
	}
	leaks := events(f, "i", "LEAK")
	require.Len(t, leaks, 1)
	assert.Equal(t, 3.0, leaks[0]["tid"])
}

// The counters split each pool into its pages, at every sample: their sum
// is the pool, and a GLM pool of a million pages is still a few events.
func TestCountersAreCounts(t *testing.T) {
	for _, slug := range []string{"demo", "glm-launch"} {
		p := preset(t, slug)
		_, f := export(t, p)
		samples := events(f, "C", "KV pool pages")
		assert.Less(t, len(samples), 100, slug)
		for _, ev := range samples {
			a := argsOf(ev)
			total := p.Config.PagesOf(engine.ServerPrefill)
			if ev["pid"] == float64(pidDecode) {
				total = p.Config.PagesOf(engine.ServerDecode)
			}
			assert.Equal(t, float64(total), a["in_use"].(float64)+a["stale"].(float64)+a["free"].(float64), "%s at %v", slug, ev["ts"])
		}
	}
	_, f := export(t, preset(t, "glm-launch"))
	var peak float64
	for _, ev := range events(f, "C", "leaked pages") {
		peak = max(peak, argsOf(ev)["leaked"].(float64))
	}
	assert.Equal(t, float64(4_095+677_177), peak, "B's leaked pages: A's and D's")
}

// The exporter's strings are JSON's: quotes, backslashes and HTML's
// characters in a tenant's name survive the round trip.
func TestStringsAreEscaped(t *testing.T) {
	tenant := `q"\<&>é`
	data, err := Export("run", engine.DemoConfig(), []engine.Op{engine.SendOp(engine.Request{Tenant: tenant, PromptTokens: 8, Content: `a "b" \c`})})
	require.NoError(t, err)
	var f file
	require.NoError(t, json.Unmarshal(data, &f))
	assert.Contains(t, string(data), `q\"\\\u003c\u0026\u003eé`)
	assert.Equal(t, "r1 tenant "+tenant, argsOf(events(f, "M", "thread_name")[0])["name"])
}

func TestFileName(t *testing.T) {
	assert.Equal(t, "kvleak-demo.trace.json", FileName("demo"))
	assert.Equal(t, "kvleak-run.trace.json", FileName(""))
	assert.Equal(t, "kvleak-run.trace.json", FileName("../x"))
}

// The demo's trace is kept in testdata: a change to it is a change to read.
func TestDemoGolden(t *testing.T) {
	data, _ := export(t, preset(t, "demo"))
	const golden = "testdata/demo.trace.json"
	if *update {
		require.NoError(t, os.WriteFile(golden, data, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(data), "go test ./engine/trace -update rewrites it")
}

// The page links this package into the wasm, which leaves encoding/json out:
// nothing it imports, however deep, may bring it back.
func TestWasmCanLinkIt(t *testing.T) {
	ctx := build.Default
	ctx.GOOS, ctx.GOARCH = "js", "wasm"
	seen := map[string]bool{}
	var walk func(path, dir string)
	walk = func(path, dir string) {
		if seen[path] || path == "C" {
			return
		}
		seen[path] = true
		p, err := ctx.Import(path, dir, 0)
		require.NoError(t, err)
		for _, imp := range p.Imports {
			walk(imp, p.Dir)
		}
	}
	walk("kvleak/engine/trace", ".")
	require.True(t, seen["kvleak/engine"], "the walk reached the engine")
	for _, bad := range []string{"encoding/json", "github.com/maxence-charriere/go-app/v10/pkg/app"} {
		assert.False(t, seen[bad], "%s is linked", bad)
	}
}

func BenchmarkExport(b *testing.B) {
	for _, slug := range []string{"demo", "glm-launch"} {
		p, _ := engine.PresetBySlug(slug)
		b.Run(slug, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Export(p.Slug, p.Config, p.Ops); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func ExampleExport() {
	p, _ := engine.PresetBySlug("demo")
	data, err := Export(p.Slug, p.Config, p.Ops)
	if err != nil {
		panic(err)
	}
	var f struct{ TraceEvents []struct{ Ph string } }
	if err := json.Unmarshal(data, &f); err != nil {
		panic(err)
	}
	fmt.Println(FileName(p.Slug), len(f.TraceEvents) > 0)
	// Output: kvleak-demo.trace.json true
}

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/presets.sha256")

// TestPresetTracesGolden pins every preset's trace, byte for byte, to the
// hashes the exporter gave before the engine's page table became runs.
func TestPresetTracesGolden(t *testing.T) {
	var b strings.Builder
	for _, p := range engine.Presets() {
		data, err := Export(p.Slug, p.Config, p.Ops)
		require.NoError(t, err)
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(data), p.Slug)
	}
	path := "testdata/presets.sha256"
	if *updateGolden {
		require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, string(want), b.String())
}
