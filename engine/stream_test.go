package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// streamAfter serves each request through a Stream to its end, one after
// another as Send does, and returns what each came to.
func streamAfter(t *testing.T, cfg Config, reqs []Request, tenantOf func(string) int32) []StreamRequest {
	t.Helper()
	s, err := NewStream(cfg)
	require.NoError(t, err)
	out := make([]StreamRequest, len(reqs))
	for i, r := range reqs {
		sr := &out[i]
		sr.Tenant, sr.PromptTokens = tenantOf(r.Tenant), r.PromptTokens
		if s.Admit(sr) {
			require.True(t, s.Serve(sr), "request %d: an empty pool has room", i+1)
			s.Release(sr)
		}
	}
	return out
}

// The demo's two requests through a Stream come to what Send makes of
// them: A's 200, then B's 200 carrying 7 pages and 119 positions of A's KV;
// through the fixed door, B's 400.
func TestStreamTellsTheDemo(t *testing.T) {
	reqs := []Request{{Tenant: "A", PromptTokens: DemoPromptA}, {Tenant: "B", PromptTokens: DemoPromptB}}
	ids := map[string]int32{"A": 1, "B": 2}
	got := streamAfter(t, DemoConfig(), reqs, func(s string) int32 { return ids[s] })
	assert.Equal(t, 200, got[0].Status)
	assert.False(t, got[0].Leaked())
	assert.Equal(t, 200, got[1].Status)
	assert.True(t, got[1].Window)
	assert.Equal(t, []StreamLeak{{Tenant: 1, Pages: 7, Tokens: 119}}, got[1].Leaks)
	assert.Equal(t, 7, got[1].ForeignPages)

	fixed := DemoConfig()
	fixed.Mode = Fixed
	got = streamAfter(t, fixed, reqs, func(s string) int32 { return ids[s] })
	assert.Equal(t, 400, got[1].Status)
	assert.False(t, got[1].Leaked())
}

// On random runs of whole requests, one after another, a Stream answers
// each request as Send does: the same status and the same other tenants'
// pages and positions, under every allocator, mode, page size and scrub.
func TestStreamAgreesWithSend(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 2))
	tenants := []string{"A", "B", "C"}
	for run := range 100 {
		cfg := DemoConfig()
		cfg.Allocator = Allocators[r.IntN(len(Allocators))]
		cfg.Mode = []Mode{Vulnerable, Fixed, RetireOnly, LengthCheckOnly, Upstream}[r.IntN(5)]
		cfg.PageTokens = []int{1, 4, 16}[r.IntN(3)]
		cfg.ScrubOnFree = r.IntN(4) == 0
		var reqs []Request
		for range 1 + r.IntN(12) {
			reqs = append(reqs, Request{Tenant: tenants[r.IntN(3)], PromptTokens: 1 + r.IntN(cfg.ContextTokens+8), Content: "x"})
		}
		e, err := New(cfg)
		require.NoError(t, err)
		got := streamAfter(t, cfg, reqs, func(s string) int32 { return int32(1 + len(s) + int(s[0]-'A')) })
		for i, rq := range reqs {
			what := fmt.Sprintf("run %d (%+v), request %d (%+v)", run, cfg, i+1, rq)
			if got[i].NeverFits {
				// Even decode's empty pool is short of its prealloc budget
				// (fill_len + 32 reserved > 160): Send leaves it waiting in
				// DecodePreallocQueue for good, holding every request behind
				// it, where the Stream counts it and goes on. It allocates
				// nothing, so a fresh engine shows Send's side; the run goes
				// on without it.
				alone, err := New(cfg)
				require.NoError(t, err)
				resp, err := alone.Send(rq)
				require.NoError(t, err, what)
				require.Equal(t, StateWaiting, resp.State, what)
				require.Equal(t, 0, resp.Allocated, what)
				require.Contains(t, alone.Log().Copy()[len(alone.Log().Copy())-1].Text, "which never comes", what)
				continue
			}
			resp, err := e.Send(rq)
			require.NoError(t, err, what)
			require.Equal(t, resp.Status, got[i].Status, what)
			require.Equal(t, resp.ForeignTokens, got[i].ForeignTokens, what)
			foreign := 0
			for _, l := range resp.Leaks {
				foreign += l.Pages
			}
			require.Equal(t, foreign, got[i].ForeignPages, what)
			require.Len(t, got[i].Leaks, len(resp.Leaks), what)
		}
	}
}
