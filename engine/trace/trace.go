// Package trace writes a run of the engine in the Trace Event Format, the
// JSON that Perfetto (ui.perfetto.dev) and chrome://tracing open, so that a
// simulated request can be laid next to a real one in the tools engineers
// already read. The client, the router and the two servers are processes,
// each request a track on every one of them it reaches; each log event is a
// slice named after its stage, the KV transfer a flow from prefill to
// decode, the door's decisions instants, and each server's KV pool a few
// counters — counts, never one event per page. docs/trace.md says what is
// where and how time is modelled.
//
// The page and the CLI share it, so it stays plain Go without
// encoding/json, which the wasm leaves out (see internal/jsonlite).
package trace

import (
	"strings"

	"kvleak/engine"
)

// StepMicros is the time model. The engine's steps are discrete and it has
// no clock, so each log step is one slot of this many microseconds: step n
// runs from (n−1) ms to n ms, and every stage slice fills its slot. Costs per
// stage would suggest latencies the simulation never measured; what a stage
// moved (tokens, pages) is in its args instead.
const StepMicros = 1000

// TimeModel states StepMicros in words, in the trace's otherData.
const TimeModel = "one log step = one 1 ms slot: step n runs from (n-1) ms to n ms and each stage slice fills its slot; " +
	"the simulation has no clock, so durations are not latencies (tokens and pages moved are in each slice's args); " +
	"a counter at n ms is the pool after step n"

// The processes, one per component, in the order the trace lists them.
const (
	ProcessClient  = "client"
	ProcessRouter  = "router"
	ProcessPrefill = "prefill server"
	ProcessDecode  = "decode server"
)

// pid is a process's id in the trace.
type pid int

const (
	pidClient pid = 1 + iota
	pidRouter
	pidPrefill
	pidDecode
)

var processNames = [...]string{pidClient: ProcessClient, pidRouter: ProcessRouter, pidPrefill: ProcessPrefill, pidDecode: ProcessDecode}

// Export replays a run — a configuration and its operations — and returns it
// as a trace. name is the run's name in the trace (RunName). It replays
// rather than reading a caller's engine because it walks the pools step by
// step, which would move that engine's ViewAt table under a page that shows it.
func Export(name string, cfg engine.Config, ops []engine.Op) ([]byte, error) {
	e, err := engine.Replay(cfg, ops)
	if err != nil {
		return nil, err
	}
	b := newBuilder(e)
	b.build()
	return b.encode(name), nil
}

// RunName is the name a run's trace goes by: the preset it started from,
// else "run".
func RunName(preset string) string {
	if preset == "" || strings.IndexFunc(preset, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	}) >= 0 {
		return "run"
	}
	return preset
}

// FileName is the file a run's trace downloads as: kvleak-<name>.trace.json.
func FileName(preset string) string { return "kvleak-" + RunName(preset) + ".trace.json" }

// HowToOpen is the one line that says how to read the file.
const HowToOpen = "Open it at ui.perfetto.dev (Open trace file) or in chrome://tracing (Load)."
