package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A configuration made with one pool gets a decode pool that backs the
// advertised context, at least the pool it had, in whole pages and within
// the bound on both pools: then every prompt the API passes reaches
// decode's door, as the one-pool engine sent them.
func TestDecodePoolForSinglePool(t *testing.T) {
	cases := []struct {
		name                string
		context, pool, page int
		want                int
	}{
		{"the old demo", 16, 8, 1, 16},
		{"today's demo pool", 256, 128, 16, 256},
		{"GLM-5.3 at launch", GLMContextTokens, GLMLaunchPoolTokens, 1, GLMContextTokens},
		{"GLM-5.3 remediated: the pool already backs the context", GLMContextTokens, GLMFixedPoolTokens, 1, GLMFixedPoolTokens},
		{"a pool larger than the context", 8, 16, 1, 16},
		{"whole pages: a 10-token context in 3-token pages", 10, 9, 3, 12},
		{"the bound on both pools", MaxContextTokens, 1_024, 1, MaxPoolPages - 1_024},
		{"the bound on both pools, in whole pages", MaxContextTokens, 1_024, 16, MaxPoolTokens},
		{"no page size: the pool", 64, 8, 0, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := DecodePoolForSinglePool(tc.context, tc.pool, tc.page)
			assert.Equal(t, tc.want, got)
			if tc.page < 1 {
				return
			}
			assert.Zero(t, got%tc.page, "whole pages")
			assert.GreaterOrEqual(t, got, tc.pool, "at least the one pool it had")
			c := Config{ContextTokens: tc.context, PoolTokens: tc.pool, DecodePoolTokens: got, PageTokens: tc.page,
				Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
			require.NoError(t, c.Validate())
			// Every prompt the API passes is read by decode or reaches it
			// as far as the bound allows: decode's limit is the context's.
			if got >= tc.context {
				assert.Equal(t, tc.context-6, c.LimitsOf(ServerDecode).MaxReqInputLen())
			}
		})
	}
}

// A single pool of more than half the bound cannot be given a decode pool
// at least as large within it: the migrated config is refused, and says
// why, instead of shrinking what the link had.
func TestDecodePoolForSinglePoolBeyondHalfTheBound(t *testing.T) {
	got := DecodePoolForSinglePool(GLMContextTokens, MaxPoolTokens, 1)
	assert.Equal(t, MaxPoolTokens, got)
	c := Config{ContextTokens: GLMContextTokens, PoolTokens: MaxPoolTokens, DecodePoolTokens: got, PageTokens: 1,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	var ce *ConfigError
	require.ErrorAs(t, c.Validate(), &ce)
	assert.Equal(t, "dpool", ce.Field)
	assert.Contains(t, ce.Rule, "the two pools hold 8,388,608 pages together")
}
