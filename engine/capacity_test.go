package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCapacity(t *testing.T) {
	const glmRatio = 681_280.0 / 1_048_576
	cases := []struct {
		name          string
		context, pool int
		page          int
		want          Capacity
		str           string
	}{
		{"demo", 256, 128, 16, Capacity{256, 128, 122, false, 128, 0.5},
			"advertised 256 tokens, pool 128 — short by 128: the running engine's max_req_input_len is 122, so prompts of 122 to 255 tokens pass the API and take the placeholder path"},
		{"exactly backed", 8, 8, 1, Capacity{8, 8, 2, true, 0, 1},
			"advertised 8 tokens, pool 8 — backed, 1.00× the context: the running engine's max_req_input_len is 2 (context − 6)"},
		{"glm launch", GLMContextTokens, GLMLaunchPoolTokens, 1, Capacity{GLMContextTokens, GLMLaunchPoolTokens, 681_274, false, 367_296, glmRatio},
			"advertised 1,048,576 tokens, pool 681,280 — short by 367,296: the running engine's max_req_input_len is 681,274, so prompts of 681,274 to 1,048,575 tokens pass the API and take the placeholder path"},
		{"glm launch, 64-token pages", GLMContextTokens, GLMLaunchPoolTokens, 64, Capacity{GLMContextTokens, GLMLaunchPoolTokens, 681_274, false, 367_296, glmRatio},
			"advertised 1,048,576 tokens, pool 681,280 — short by 367,296: the running engine's max_req_input_len is 681,274, so prompts of 681,274 to 1,048,575 tokens pass the API and take the placeholder path"},
		{"glm remediated", GLMContextTokens, GLMFixedPoolTokens, 1, Capacity{GLMContextTokens, GLMFixedPoolTokens, 1_048_570, true, 0, 2_040_000.0 / 1_048_576},
			"advertised 1,048,576 tokens, pool 2,040,000 — backed, 1.95× the context: the running engine's max_req_input_len is 1,048,570 (context − 6)"},
		// 10 tokens of 3-token pages are 3 pages: 9 tokens. A 10-token
		// context is not backed, whatever the spec sheet says.
		{"partial page", 10, 10, 3, Capacity{10, 9, 3, false, 1, 0.9},
			"advertised 10 tokens, pool 9 — short by 1: the running engine's max_req_input_len is 3, so prompts of 3 to 9 tokens pass the API and take the placeholder path"},
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

// SGLang's limit at both edges, for a limit set by the pool and one set by
// the context: max_req_len = min(context − 1, pool − 1), max_req_input_len =
// max_req_len − 5, over when prompt >= max_req_input_len; the API refuses
// prompt >= context.
func TestIntakeLimitEdges(t *testing.T) {
	glm := Config{ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, PageTokens: 1, SlotPages: 8,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	backed := glm
	backed.PoolTokens = GLMFixedPoolTokens
	partial := Config{ContextTokens: 41, PoolTokens: 10, PageTokens: 3, SlotPages: 1,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1} // 3 pages: 9 tokens
	cases := []struct {
		name   string
		cfg    Config
		tokens int
		path   Path
		quote  string // what the intake event must say
	}{
		{"pool: longest that fits", glm, 681_273, PathNormal, "681,273 tokens is below max_req_input_len 681,274"},
		{"pool: max_req_input_len", glm, 681_274, PathPlaceholder, "Input length (681274 tokens) exceeds the maximum allowed length (681274 tokens)."},
		{"pool: the pool itself", glm, GLMLaunchPoolTokens, PathPlaceholder, "Input length (681280 tokens) exceeds the maximum allowed length (681274 tokens)."},
		{"context: longest that fits", backed, GLMContextTokens - 7, PathNormal, "1,048,569 tokens is below max_req_input_len 1,048,570"},
		{"context: max_req_input_len", backed, GLMContextTokens - 6, PathPlaceholder, "Input length (1048570 tokens) exceeds the maximum allowed length (1048570 tokens)."},
		{"context: last below the context", backed, GLMContextTokens - 1, PathPlaceholder, "Input length (1048575 tokens) exceeds the maximum allowed length (1048570 tokens)."},
		{"context: the context itself", backed, GLMContextTokens, PathAPIReject, "The input (1048576 tokens) is longer than the model's context length (1048576 tokens)."},
		{"whole pages: longest that fits", partial, 2, PathNormal, "2 tokens is below max_req_input_len 3 (min(context 41 − 1, pool 9 − 1) − 5)"},
		{"whole pages: max_req_input_len", partial, 3, PathPlaceholder, "Input length (3 tokens) exceeds the maximum allowed length (3 tokens)."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEngine(t, tc.cfg)
			resp := send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
			assert.Equal(t, tc.path, resp.Path)
			assert.Contains(t, e.Log().At(0).Text, tc.quote)
			switch tc.path {
			case PathNormal:
				assert.Equal(t, 200, resp.Status)
			case PathPlaceholder:
				assert.Equal(t, 200, resp.Status, "the vulnerable door answers 200")
			case PathAPIReject:
				assert.Equal(t, 400, resp.Status)
				assert.Equal(t, tc.quote, resp.Reason)
			}
			fixed := tc.cfg
			fixed.Mode = Fixed
			e = newEngine(t, fixed)
			resp = send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
			if tc.path == PathNormal {
				assert.Equal(t, 200, resp.Status)
				return
			}
			assert.Equal(t, 400, resp.Status, "the fixed door and the API both refuse")
			assert.Zero(t, resp.Allocated)
			assert.NotEqual(t, 503, resp.Status)
		})
	}
}

func TestMaxReqInputLen(t *testing.T) {
	for _, tc := range []struct{ context, pool, page, want int }{
		{GLMContextTokens, GLMLaunchPoolTokens, 1, 681_274},
		{GLMContextTokens, GLMFixedPoolTokens, 1, 1_048_570},
		{256, 128, 16, 122},
		{16, 8, 1, 2},
		{8, 1, 1, -5}, // a one-token pool reads no prompt in full
	} {
		c := Config{ContextTokens: tc.context, PoolTokens: tc.pool, PageTokens: tc.page}
		assert.Equal(t, tc.want, c.MaxReqInputLen(), "%+v", tc)
		assert.Equal(t, tc.want+5, c.MaxReqLen(), "%+v", tc)
	}
}

// LimitChanges names the requests whose outcome the new limit changes.
func TestLimitChanges(t *testing.T) {
	cfg := Config{ContextTokens: 16, PoolTokens: 8, PageTokens: 1, SlotPages: 8,
		Mode: Vulnerable, Allocator: LIFO, Cancel: CancelBoth, KVBytesPerToken: 1} // the demo before the change
	ops := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret}), // fitted; now over: a placeholder
		SendOp(Request{Tenant: "B", PromptTokens: 12}),                     // a placeholder both times, but leaks no more
		SendOp(Request{Tenant: "C", PromptTokens: 1}),                      // fits both times
		SendOp(Request{Tenant: "C", PromptTokens: 16}),                     // placeholder before; the API refuses it now
		SettleOp(9, OutcomeDrained),                                        // applies under neither: skipped
	}
	got, err := LimitChanges(cfg, ops)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2, 4}, got)

	got, err = LimitChanges(cfg, ops[2:3])
	require.NoError(t, err)
	assert.Empty(t, got)

	_, err = LimitChanges(cfg, []Op{SendOp(Request{Tenant: "", PromptTokens: 1})})
	assert.Error(t, err)
}
