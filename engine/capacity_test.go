package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCapacity(t *testing.T) {
	const glmRatio = 681_280.0 / 1_048_576
	cases := []struct {
		name                 string
		context, pool, dpool int
		page                 int
		want                 Capacity
		str                  string
	}{
		{"demo", 256, 128, 160, 16, Capacity{256,
			ServerCapacity{128, 127, 122, false, 128, 0.5}, ServerCapacity{160, 159, 154, false, 96, 0.625}, Window{122, 153}, Window{122, 128}},
			"advertised 256 tokens; prefill pool 128 — short by 128 (max_req_input_len 122); decode pool 160 — short by 96 (max_req_input_len 154); the window is open: prompts of 122–153 tokens pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token; decode attends over those of 122–128 tokens — longer ones never fit its prealloc budget or are left no token to decode"},
		{"symmetric", 256, 128, 128, 16, Capacity{256,
			ServerCapacity{128, 127, 122, false, 128, 0.5}, ServerCapacity{128, 127, 122, false, 128, 0.5}, Window{122, 121}, Window{122, 121}},
			"advertised 256 tokens; prefill pool 128 — short by 128 (max_req_input_len 122); decode pool 128 — short by 128 (max_req_input_len 122); the window is closed: prefill admits every prompt decode admits"},
		{"exactly backed", 8, 8, 8, 1, Capacity{8,
			ServerCapacity{8, 7, 2, true, 0, 1}, ServerCapacity{8, 7, 2, true, 0, 1}, Window{2, 1}, Window{2, 1}},
			"advertised 8 tokens; prefill pool 8 — backed, 1.00× the context (max_req_input_len 2, context − 6); decode pool 8 — backed, 1.00× the context (max_req_input_len 2, context − 6); the window is closed: prefill admits every prompt decode admits"},
		{"glm launch", GLMContextTokens, GLMLaunchPoolTokens, GLMDecodePoolTokens, 1, Capacity{GLMContextTokens,
			ServerCapacity{GLMLaunchPoolTokens, 681_279, 681_274, false, 367_296, glmRatio}, ServerCapacity{GLMDecodePoolTokens, 1_048_575, 1_048_570, true, 0, 1}, Window{681_274, 1_048_569}, Window{681_274, 1_048_569}},
			"advertised 1,048,576 tokens; prefill pool 681,280 — short by 367,296 (max_req_input_len 681,274); decode pool 1,048,576 — backed, 1.00× the context (max_req_input_len 1,048,570, context − 6); the window is open: prompts of 681,274–1,048,569 tokens pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token"},
		{"glm launch, 64-token pages", GLMContextTokens, GLMLaunchPoolTokens, GLMDecodePoolTokens, 64, Capacity{GLMContextTokens,
			ServerCapacity{GLMLaunchPoolTokens, 681_279, 681_274, false, 367_296, glmRatio}, ServerCapacity{GLMDecodePoolTokens, 1_048_575, 1_048_570, true, 0, 1}, Window{681_274, 1_048_569}, Window{681_274, 1_048_448}},
			"advertised 1,048,576 tokens; prefill pool 681,280 — short by 367,296 (max_req_input_len 681,274); decode pool 1,048,576 — backed, 1.00× the context (max_req_input_len 1,048,570, context − 6); the window is open: prompts of 681,274–1,048,569 tokens pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token; decode attends over those of 681,274–1,048,448 tokens — longer ones never fit its prealloc budget or are left no token to decode"},
		{"glm remediated", GLMContextTokens, GLMFixedPoolTokens, GLMDecodePoolTokens, 1, Capacity{GLMContextTokens,
			ServerCapacity{GLMFixedPoolTokens, 1_048_575, 1_048_570, true, 0, 2_040_000.0 / 1_048_576}, ServerCapacity{GLMDecodePoolTokens, 1_048_575, 1_048_570, true, 0, 1}, Window{1_048_570, 1_048_569}, Window{1_048_570, 1_048_569}},
			"advertised 1,048,576 tokens; prefill pool 2,040,000 — backed, 1.95× the context (max_req_input_len 1,048,570, context − 6); decode pool 1,048,576 — backed, 1.00× the context (max_req_input_len 1,048,570, context − 6); the window is closed: prefill admits every prompt decode admits"},
		// 10 tokens of 3-token pages are 3 pages: 9 tokens. A 10-token
		// context is not backed, whatever the spec sheet says; decode's
		// 12 tokens are 4 whole pages and back it.
		{"partial page", 10, 10, 12, 3, Capacity{10,
			ServerCapacity{9, 8, 3, false, 1, 0.9}, ServerCapacity{12, 9, 4, true, 0, 1.2}, Window{3, 3}, Window{3, 3}},
			"advertised 10 tokens; prefill pool 9 — short by 1 (max_req_input_len 3); decode pool 12 — backed, 1.20× the context (max_req_input_len 4, context − 6); the window is open: prompts of 3 tokens pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := Config{ContextTokens: tc.context, PoolTokens: tc.pool, DecodePoolTokens: tc.dpool, PageTokens: tc.page,
				Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
			require.NoError(t, c.Validate())
			got := c.Capacity()
			for _, p := range []*[2]*ServerCapacity{{&tc.want.Prefill, &got.Prefill}, {&tc.want.Decode, &got.Decode}} {
				assert.InDelta(t, p[0].Ratio, p[1].Ratio, 1e-9)
				p[1].Ratio = p[0].Ratio
			}
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.str, got.String())
			assert.Equal(t, c.Window(), got.Window)
		})
	}
}

// The capacity of each server is its own Limits: the same figures as
// validate_input_length uses at intake.
func TestCapacityIsEachServersLimits(t *testing.T) {
	for _, p := range Presets() {
		c := p.Config.Capacity()
		for s, sc := range map[Server]ServerCapacity{ServerPrefill: c.Prefill, ServerDecode: c.Decode} {
			l := p.Config.LimitsOf(s)
			assert.Equal(t, []int{l.PoolTokens, l.MaxReqLen(), l.MaxReqInputLen()}, []int{sc.PoolTokens, sc.MaxReqLen, sc.MaxReqInputLen}, "%s %s", p.Slug, s)
			assert.Equal(t, p.Config.PagesOf(s)*p.Config.PageTokens, sc.PoolTokens, "%s %s: whole pages", p.Slug, s)
			assert.Equal(t, max(p.Config.ContextTokens-sc.PoolTokens, 0), sc.ShortBy, "%s %s", p.Slug, s)
		}
	}
}
