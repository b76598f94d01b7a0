package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pop_preallocated's budget: available − max(reserve × active,
// need_space_for_single_req), and both terms of a request within it.
func TestBudgetCheck(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		b                           Budget
		fill, maxNew, reserve, page int
		fits                        bool
		words                       string
	}{
		{"the demo's B", Budget{Available: 160}, 125, 15, 32, 16, true, "125 + 32 reserved ≤ 160 free"},
		{"SGLang's default reserve on the demo's pool", Budget{Available: 160}, 125, 15, 512, 16, false, "125 + 512 reserved > 160 free"},
		{"equality fits", Budget{Available: 157}, 125, 15, 32, 16, true, "125 + 32 reserved ≤ 157 free"},
		{"another request's reserve is kept in hand", Budget{Available: 160, Active: 1}, 120, 15, 32, 16, false, "120 + 32 reserved > 128 allocatable"},
		{"the growth term stops it", Budget{Available: 20}, 8, 128, 0, 1, false, "8 + 128 max_new_tokens > 20 free"},
		{"the growth term is clipped at CLIP_MAX_NEW_TOKEN", Budget{Available: 1 << 20}, 1000, 1 << 20, 0, 1, true, "1,000 + 0 reserved ≤ 1,048,576 free"},
		{"the running batch's need for one request", Budget{Available: 100, Active: 1, Retractable: 10, NeedSingle: 60}, 30, 0, 0, 1, true, "30 + 0 reserved ≤ 40 allocatable"},
		{"the page tail covers part of the reserve", Budget{Available: 48}, 14, 0, 34, 16, true, "14 + 34 reserved ≤ 48 free"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.b.Check(tc.fill, tc.maxNew, tc.reserve, tc.page)
			assert.Equal(t, tc.fits, c.Fits())
			assert.Equal(t, tc.words, c.String())
		})
	}
}

// Issue 48's done-when: at the demo's sizes with SGLang's default reserve
// neither A nor B is preallocated — A does not fit, B waits behind it —
// and nothing leaks; with the demo's reserve, B leaks.
func TestDemoWithSGLangsDefaultReserve(t *testing.T) {
	p, _ := PresetBySlug("demo")
	cfg := p.Config
	cfg.ReservedDecodeTokens = DefaultReservedDecodeTokens
	e, err := Replay(cfg, p.Ops)
	require.NoError(t, err)
	a, b := e.Responses()[0], e.Responses()[1]
	assert.Equal(t, StateWaiting, a.State)
	assert.Equal(t, "120 + 512 reserved > 160 free", a.Wait)
	assert.Equal(t, StateWaiting, b.State)
	assert.Equal(t, "behind r1", b.Wait)
	assert.Zero(t, e.Metrics().LeakedResponses)
	assert.Zero(t, e.Metrics().Decode.Allocated)
	assert.Contains(t, a.Verdict(), "120 + 512 reserved > 160 free")
	assert.Contains(t, textOf(e.Log().Copy(), StageDecodePrealloc), "which never comes")

	demo := replayPreset(t, "demo")
	assert.True(t, demo.Responses()[1].Leaked())
	assert.Equal(t, 15, demo.Responses()[1].MaxNew, "init_req_max_new_tokens: 160 − 128 − 16 − 1")
}

// A request that waits on the budget is preallocated, in queue order,
// once a release makes room.
func TestBudgetWaitsThenResumesInOrder(t *testing.T) {
	cfg := DemoConfig()
	cfg.Cancel = CancelOneHalf
	e := newEngine(t, cfg)
	// A's client leaves mid-transfer; the router cancels only decode,
	// which keeps A's 8 pages until prefill's ABORT_ACK.
	send(t, e, Request{Tenant: "A", PromptTokens: 120, Content: DemoSecret, CancelAt: StagePrefillTransfer})
	b := send(t, e, Request{Tenant: "B", PromptTokens: 40})
	c := send(t, e, Request{Tenant: "C", PromptTokens: 8})
	assert.Equal(t, StateWaiting, b.State)
	assert.Equal(t, "40 + 32 reserved > 32 free", b.Wait)
	assert.Equal(t, StateWaiting, c.State)
	assert.Equal(t, "behind r2", c.Wait, "first come, first served: C would fit, but B is ahead")
	require.NoError(t, e.Settle(1, OutcomeDrained))
	rb, _ := e.Response(2)
	rc, _ := e.Response(3)
	assert.Equal(t, 200, rb.Status)
	assert.Equal(t, 200, rc.Status)
	assert.Less(t, rb.Step, rc.Step, "B before C")
}

// _check_if_req_exceed_kv_capacity (DecodePreallocQueue.add) refuses a
// prompt longer than decode's pool; validate_input_length runs first and
// swaps any prompt at or past max_req_input_len (at most pool − 6) for its
// one-token placeholder, so what reaches the check is always shorter than
// the pool. The engine does not model the check; this shows why it need
// not, over every prompt length of several pools.
func TestCapacityCheckCannotFire(t *testing.T) {
	for _, cfg := range []Config{DemoConfig(), {ContextTokens: 64, PoolTokens: 8, DecodePoolTokens: 12, PageTokens: 3}, {ContextTokens: 9, PoolTokens: 4, DecodePoolTokens: 4, PageTokens: 1}} {
		for n := 1; n < cfg.ContextTokens; n++ {
			v := cfg.Admit(n, 0)
			assert.Less(t, v.Fill, cfg.LimitsOf(ServerDecode).PoolTokens, "%d tokens", n)
		}
	}
}
