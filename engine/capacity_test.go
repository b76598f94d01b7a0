package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCapacity(t *testing.T) {
	cases := []struct {
		name          string
		context, pool int
		page          int
		want          Capacity
		str           string
	}{
		{"demo", 16, 8, 1, Capacity{16, 8, false, 8, 0.5}, "advertised 16 tokens, pool 8 — short by 8"},
		{"exactly backed", 8, 8, 1, Capacity{8, 8, true, 0, 1}, "advertised 8 tokens, pool 8 — backed, 1.00× the context"},
		{"glm launch", GLMContextTokens, GLMLaunchPoolTokens, 1, Capacity{GLMContextTokens, GLMLaunchPoolTokens, false, 367_296, 681_280.0 / 1_048_576},
			"advertised 1,048,576 tokens, pool 681,280 — short by 367,296"},
		{"glm launch, 64-token pages", GLMContextTokens, GLMLaunchPoolTokens, 64, Capacity{GLMContextTokens, GLMLaunchPoolTokens, false, 367_296, 681_280.0 / 1_048_576},
			"advertised 1,048,576 tokens, pool 681,280 — short by 367,296"},
		{"glm remediated", GLMContextTokens, GLMFixedPoolTokens, 1, Capacity{GLMContextTokens, GLMFixedPoolTokens, true, 0, 2_040_000.0 / 1_048_576},
			"advertised 1,048,576 tokens, pool 2,040,000 — backed, 1.95× the context"},
		// 10 tokens of 3-token pages are 3 pages: 9 tokens. A 10-token
		// context is not backed, whatever the spec sheet says.
		{"partial page", 10, 10, 3, Capacity{10, 9, false, 1, 0.9}, "advertised 10 tokens, pool 9 — short by 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{ContextTokens: tc.context, PoolTokens: tc.pool, PageTokens: tc.page, SlotPages: 1,
				Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
			require.NoError(t, c.Validate())
			got := c.Capacity()
			assert.InDelta(t, tc.want.Ratio, got.Ratio, 1e-9)
			got.Ratio = tc.want.Ratio
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.str, got.String())
		})
	}
}

func TestUsableTokens(t *testing.T) {
	for _, tc := range []struct{ pool, page, want int }{
		{8, 1, 8}, {10, 3, 9}, {64, 64, 64}, {127, 64, 64}, {GLMLaunchPoolTokens, 64, GLMLaunchPoolTokens},
	} {
		c := Config{PoolTokens: tc.pool, PageTokens: tc.page}
		assert.Equal(t, tc.want, c.UsableTokens(), "%+v", tc)
	}
}

// A prompt that needs a partial page more than the pool has takes the
// placeholder path at intake, as in SGLang where max_total_num_tokens is
// aligned down to the page size; it is never let through to exhaust an
// empty pool with a 503. (Found by FuzzOps.)
func TestIntakeUsesWholePages(t *testing.T) {
	cfg := Config{ContextTokens: 41, PoolTokens: 10, PageTokens: 3, SlotPages: 1,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	cases := []struct {
		tokens int
		path   Path
		status int
	}{
		{9, PathNormal, 200},       // 3 pages: the whole pool
		{10, PathPlaceholder, 200}, // would need 4 pages
		{11, PathPlaceholder, 200},
		{42, PathAPIReject, 400},
	}
	for _, tc := range cases {
		e := newEngine(t, cfg)
		resp := send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
		assert.Equal(t, tc.path, resp.Path, "%d tokens", tc.tokens)
		assert.Equal(t, tc.status, resp.Status, "%d tokens", tc.tokens)
		assert.NotEqual(t, 503, resp.Status)
		if tc.path != PathAPIReject {
			assert.Contains(t, e.Events()[0].Text, "KV pool (9")
		}
		fixed := cfg
		fixed.Mode = Fixed
		e = newEngine(t, fixed)
		resp = send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
		if tc.path == PathPlaceholder {
			assert.Equal(t, 400, resp.Status, "the fixed door retires it")
			assert.Zero(t, resp.Allocated)
		}
	}
}
