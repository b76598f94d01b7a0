package engine

import (
	"maps"
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

// abortConfig is the abort presets' deployment: two 16-page pools of
// 1-token pages, so two 8-token prompts fit each.
func abortConfig(policy CancelPolicy) Config {
	return Config{
		ContextTokens: 32, PoolTokens: 16, DecodePoolTokens: 16, PageTokens: 1,
		Mode: Vulnerable, Allocator: LIFO, Cancel: policy, KVBytesPerToken: DefaultKVBytesTok,
	}
}

// isDeferral reports whether a release event only announces a deferred
// release: decode keeps the pages held until Settle.
func isDeferral(ev Event) bool {
	return ev.Stage == StageRelease && strings.Contains(ev.Text, "defers the release")
}

// freedByEvents counts, per request, the pages of server's pool freed
// across its release events as the public log shows them (a deferral frees
// nothing).
func freedByEvents(events []Event, server Server) map[int]int {
	freed := map[int]int{}
	for _, ev := range events {
		if ev.Stage == StageRelease && ev.Pool == server && len(ev.Pages) > 0 && !isDeferral(ev) {
			freed[ev.Request] += ev.Pages.Len()
		}
	}
	return freed
}

// freedByMutations and allocatedByMutations count, per request, the pages
// of server's pool the log's mutations actually freed or allocated: what
// Snapshot replays.
func freedByMutations(events []Event, server Server) map[int]int {
	return countMutations(events, server, mutFree)
}

func allocatedByMutations(events []Event, server Server) map[int]int {
	return countMutations(events, server, mutAlloc)
}

func countMutations(events []Event, server Server, kind mutKind) map[int]int {
	n := map[int]int{}
	for _, ev := range events {
		for _, m := range ev.muts {
			if m.kind == kind && m.server == indexOf(server) {
				n[int(m.req)] += m.pages.Len()
			}
		}
	}
	return n
}

// stepOf is the step of request's first event at stage whose pages are in
// server's pool.
func stepOf(t testing.TB, events []Event, request int, stage Stage, server Server) int {
	t.Helper()
	for _, ev := range events {
		if ev.Request == request && ev.Stage == stage && ev.Pool == server {
			return ev.Step
		}
	}
	t.Fatalf("no %s event of r%d in the %s pool", stage, request, server)
	return 0
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
	Waiting   []int
	Pools     [2]poolState
}

// poolState is one server's pool: its pages' holders, writers and
// positions, and its free list.
type poolState struct {
	Holder, Writer []int32
	Partial        map[int32]positions
	Free           []int32
}

func capture(e *Engine) state {
	s := state{
		Events:    e.Log().Copy(),
		Responses: append([]Response(nil), e.Responses()...),
		Metrics:   e.Metrics(),
		Tenants:   append([]string(nil), e.Tenants()...),
		Lingering: e.Lingering(),
		Waiting:   e.Waiting(),
	}
	for i, p := range e.pools {
		holder, writer := p.perPage()
		s.Pools[i] = poolState{Holder: holder, Writer: writer, Partial: maps.Clone(p.partial), Free: p.free.ids()}
	}
	return s
}

// counts is what decode reserved, what prefill sent, what decode committed
// and whose the committed positions were: own, foreign, empty.
func counts(r Response) []int {
	return []int{r.Reserved, r.Sent, r.Committed, r.OwnTokens, r.ForeignTokens, r.EmptyTokens}
}

// pg is a Pages literal of one run.
func pg(first, count int) Pages { return Pages{{First: first, Count: count}} }

// perPage is the table's holders and writers page by page: the old
// layout, for tests that compare pools.
func (t *pageTable) perPage() (holder, writer []int32) {
	holder, writer = make([]int32, t.pages), make([]int32, t.pages)
	t.eachRun(0, t.pages, func(first, n int, h, w int32) {
		for id := first; id < first+n; id++ {
			holder[id], writer[id] = h, w
		}
	})
	return holder, writer
}

// writerAt is page id's writer in a snapshot.
func writerAt(s *Snapshot, id int) int32 {
	_, w := s.t.at(id)
	return w
}
