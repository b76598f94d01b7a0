package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// glmOneHalf is the glm-launch deployment with a router that cancels only
// one half, so that mixed runs also exercise deferred releases and Settle.
func glmOneHalf(t testing.TB) Config {
	p, ok := PresetBySlug("glm-launch")
	require.True(t, ok)
	cfg := p.Config
	cfg.Cancel = CancelOneHalf
	return cfg
}

// mixedOps drives an engine with n pseudo-random requests (seeded, so the
// same every time) and returns the ops it applied, settles included: varied
// tenants and sizes, placeholders, API rejects, cancels at every stage,
// failed transfers, and each lingering request settled with some outcome.
func mixedOps(t testing.TB, cfg Config, n int, seed uint64) []Op {
	e, err := New(cfg)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(seed, 0x6b766c65616b))
	tenants := []string{"A", "B", "C", "D", "E", "F", "G", "H"}
	contents := []string{DemoSecret, "summarise my notes", "review this codebase", ""}
	var ops []Op
	apply := func(op Op) {
		require.NoError(t, e.Apply(op))
		ops = append(ops, op)
	}
	for range n {
		r := Request{Tenant: tenants[rng.IntN(len(tenants))], Content: contents[rng.IntN(len(contents))]}
		switch k := rng.IntN(100); {
		case k < 85:
			r.PromptTokens = 1 + rng.IntN(min(8_192, cfg.PoolTokens))
		case k < 87:
			r.PromptTokens = 1 + rng.IntN(min(100_000, cfg.PoolTokens))
		case k < 95: // fits the context, not the pool
			r.PromptTokens = cfg.PoolTokens + 1 + rng.IntN(max(cfg.ContextTokens-cfg.PoolTokens, 1))
		default: // longer than the context
			r.PromptTokens = cfg.ContextTokens + 1 + rng.IntN(1_000)
		}
		switch k := rng.IntN(100); {
		case k < 10:
			r.CancelAt = CancelStages[rng.IntN(len(CancelStages))]
		case k < 15:
			r.FailTransfer = true
		}
		apply(SendOp(r))
		for _, id := range e.Lingering() {
			if rng.IntN(2) == 0 {
				apply(SettleOp(id, Outcomes[rng.IntN(len(Outcomes))]))
			}
		}
	}
	for _, id := range e.Lingering() {
		apply(SettleOp(id, OutcomeDrained))
	}
	return ops
}
