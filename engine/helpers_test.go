package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Helpers shared by the engine's tests.

// newEngine builds an engine from a config that must be valid.
func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	e, err := New(cfg)
	require.NoError(t, err)
	require.NotNil(t, e)
	return e
}

// send sends a request that must be accepted.
func send(t testing.TB, e *Engine, r Request) Response {
	t.Helper()
	resp, err := e.Send(r)
	require.NoError(t, err)
	return resp
}

// replayPreset replays the preset named slug.
func replayPreset(t testing.TB, slug string) *Engine {
	t.Helper()
	p, ok := PresetBySlug(slug)
	require.True(t, ok, "preset %q", slug)
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	return e
}

// abortConfig is the abort presets' deployment: a 16-page pool of 1-token
// pages with 8-page slots, so two slots fit.
func abortConfig(policy CancelPolicy) Config {
	return Config{
		ContextTokens: 32, PoolTokens: 16, PageTokens: 1, SlotPages: DefaultSlotPages,
		Mode: Vulnerable, Allocator: LIFO, Cancel: policy, KVBytesPerToken: DefaultKVBytesTok,
	}
}

// isDeferral reports whether a release event only announces a deferred
// release: decode keeps the pages held until Settle.
func isDeferral(ev Event) bool {
	return ev.Stage == StageRelease && strings.Contains(ev.Text, "defers the release")
}

// freedByEvents counts, per request, the pages freed across its release
// events as the public log shows them (a deferral frees nothing).
func freedByEvents(events []Event) map[int]int {
	freed := map[int]int{}
	for _, ev := range events {
		if ev.Stage == StageRelease && len(ev.Pages) > 0 && !isDeferral(ev) {
			freed[ev.Request] += ev.Pages.Len()
		}
	}
	return freed
}

// freedByMutations counts, per request, the pages the log's pool mutations
// actually freed: what Snapshot replays.
func freedByMutations(events []Event) map[int]int {
	freed := map[int]int{}
	for _, ev := range events {
		for _, m := range ev.muts {
			if m.kind == mutFree {
				freed[int(m.req)] += m.pages.Len()
			}
		}
	}
	return freed
}

// eventsOf returns the events of one request.
func eventsOf(events []Event, request int) []Event {
	var out []Event
	for _, ev := range events {
		if ev.Request == request {
			out = append(out, ev)
		}
	}
	return out
}

// state is everything Send or Settle could change, copied so that a later
// call cannot alter it.
type state struct {
	Events    []Event
	Responses []Response
	Metrics   Metrics
	Tenants   []string
	Lingering []int
	Holder    []int32
	Writer    []int32
	Free      []int32
}

func capture(e *Engine) state {
	return state{
		Events:    e.Log().Copy(),
		Responses: append([]Response(nil), e.Responses()...),
		Metrics:   e.Metrics(),
		Tenants:   append([]string(nil), e.Tenants()...),
		Lingering: e.Lingering(),
		Holder:    append([]int32(nil), e.pool.holder...),
		Writer:    append([]int32(nil), e.pool.writer...),
		Free:      e.pool.free.ids(),
	}
}

// pg is a Pages literal of one run.
func pg(first, count int) Pages { return Pages{{First: first, Count: count}} }
