package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The same config and ops always give the same log (pool mutations
// included), responses, metrics and pool.
func TestDeterminism(t *testing.T) {
	runs := map[string]struct {
		cfg Config
		ops []Op
	}{}
	for _, p := range Presets() {
		runs["preset "+p.Slug] = struct {
			cfg Config
			ops []Op
		}{p.Config, p.Ops}
	}
	cfg := glmOneHalf(t)
	runs["mixed glm one-half"] = struct {
		cfg Config
		ops []Op
	}{cfg, mixedOps(t, cfg, 1_000, 7)}
	small := Config{ContextTokens: 64, PoolTokens: 40, DecodePoolTokens: 64, PageTokens: 2,
		Mode: Vulnerable, Cancel: CancelOneHalf, ScrubOnFree: true, KVBytesPerToken: 3}
	runs["mixed small scrub"] = struct {
		cfg Config
		ops []Op
	}{small, mixedOps(t, small, 500, 11)}

	for name, run := range runs {
		t.Run(name, func(t *testing.T) {
			a, err := Replay(run.cfg, run.ops)
			require.NoError(t, err)
			b, err := Replay(run.cfg, run.ops)
			require.NoError(t, err)
			require.Equal(t, a.Log().Copy(), b.Log().Copy())
			require.Equal(t, a.Responses(), b.Responses())
			require.Equal(t, a.Metrics(), b.Metrics())
			require.Equal(t, a.Tenants(), b.Tenants())
			require.Equal(t, a.Lingering(), b.Lingering())
			require.Equal(t, a.pools, b.pools)
			ja, err := json.Marshal(a.Log().Copy())
			require.NoError(t, err)
			jb, _ := json.Marshal(b.Log().Copy())
			assert.JSONEq(t, string(ja), string(jb))
		})
	}
}

// A run survives a JSON round trip of its config and ops — what a permalink
// or an export stores — and replays to the same result.
func TestReplayFromJSON(t *testing.T) {
	cfg := glmOneHalf(t)
	ops := mixedOps(t, cfg, 300, 3)
	data, err := json.Marshal(struct {
		Config Config `json:"config"`
		Ops    []Op   `json:"ops"`
	}{cfg, ops})
	require.NoError(t, err)
	var back struct {
		Config Config `json:"config"`
		Ops    []Op   `json:"ops"`
	}
	require.NoError(t, json.Unmarshal(data, &back))
	require.Equal(t, cfg, back.Config)
	require.Equal(t, ops, back.Ops)
	a, err := Replay(cfg, ops)
	require.NoError(t, err)
	b, err := Replay(back.Config, back.Ops)
	require.NoError(t, err)
	assert.Equal(t, a.Log().Copy(), b.Log().Copy())
	assert.Equal(t, a.Metrics(), b.Metrics())
}

func TestReplayStopsAtTheFailingOp(t *testing.T) {
	ops := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: 8}),
		SettleOp(1, OutcomeDrained), // request 1 is not lingering
		SendOp(Request{Tenant: "B", PromptTokens: 8}),
	}
	e, err := Replay(DemoConfig(), ops)
	assert.Nil(t, e)
	assert.EqualError(t, err, "operation 2: request 1 has no deferred release to settle")
	var re *RequestError
	assert.ErrorAs(t, err, &re)
}
