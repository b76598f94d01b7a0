package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// SGLang's limit from the running engine: max_req_len = min(context − 1,
// max_total_num_tokens − 1), max_total_num_tokens in whole pages;
// max_req_input_len = max_req_len − 5.
func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		context, pool, page    int
		aligned, maxLen, input int
	}{
		{GLMContextTokens, GLMLaunchPoolTokens, 1, GLMLaunchPoolTokens, 681_279, 681_274},
		{GLMContextTokens, GLMFixedPoolTokens, 1, GLMFixedPoolTokens, 1_048_575, 1_048_570},
		{GLMContextTokens, GLMLaunchPoolTokens, 64, GLMLaunchPoolTokens, 681_279, 681_274},
		{256, 128, 16, 128, 127, 122},
		{256, 144, 16, 144, 143, 138},
		{16, 8, 1, 8, 7, 2},
		{41, 10, 3, 9, 8, 3},      // 3 whole pages
		{64, 127, 64, 64, 63, 58}, // 1 whole page
		// Tiny pools read no prompt in full: every prompt is rejected.
		{8, 6, 1, 6, 5, 0},
		{8, 1, 1, 1, 0, -5},
		{1, 1, 1, 1, 0, -5}, // a one-token context, too
	} {
		l := NewLimits(tc.context, tc.pool, tc.page)
		assert.Equal(t, Limits{ContextTokens: tc.context, PoolTokens: tc.aligned, PageTokens: tc.page}, l, "%+v", tc)
		assert.Equal(t, tc.maxLen, l.MaxReqLen(), "%+v", tc)
		assert.Equal(t, tc.input, l.MaxReqInputLen(), "%+v", tc)
		assert.False(t, l.Rejects(tc.input-1), "%+v: one token below max_req_input_len is read in full", tc)
		assert.True(t, l.Rejects(tc.input), "%+v: max_req_input_len itself is rejected", tc)
		if tc.input <= 1 {
			assert.True(t, l.Rejects(1), "%+v: even one token is rejected", tc)
		}
		assert.False(t, l.OverAPI(tc.context-1))
		assert.True(t, l.OverAPI(tc.context))
	}
	assert.Equal(t, "min(context 1,048,576 − 1, pool 681,280 − 1) − 5", NewLimits(GLMContextTokens, GLMLaunchPoolTokens, 1).Words())
	assert.Equal(t, Limits{ContextTokens: 8, PoolTokens: 5}, NewLimits(8, 5, 0), "no page size: the pool as given")
}

// LeakWindow is the prompt lengths both servers' intakes see (below both
// contexts) that prefill's rejects and decode's admits.
func TestLeakWindow(t *testing.T) {
	glmPrefill := NewLimits(GLMContextTokens, GLMLaunchPoolTokens, 1)
	cases := []struct {
		name            string
		prefill, decode Limits
		want            Window
		text            string
	}{
		{"the article's: decode backs the context", glmPrefill, NewLimits(GLMContextTokens, GLMDecodePoolTokens, 1),
			Window{681_274, 1_048_569}, "681,274–1,048,569 tokens"},
		{"decode's pool bounds it", glmPrefill, NewLimits(GLMContextTokens, 900_000, 1),
			Window{681_274, 899_993}, "681,274–899,993 tokens"},
		{"one length", NewLimits(256, 128, 16), NewLimits(256, 129, 1), Window{122, 122}, "122 tokens"},
		{"decode one page more: the demo", NewLimits(256, 128, 16), NewLimits(256, 144, 16), Window{122, 137}, "122–137 tokens"},
		{"equal pools: closed", NewLimits(256, 128, 16), NewLimits(256, 128, 16), Window{122, 121}, "closed"},
		{"decode smaller: closed", glmPrefill, NewLimits(GLMContextTokens, 500_000, 1), Window{681_274, 499_993}, "closed"},
		{"remediated: closed", NewLimits(GLMContextTokens, GLMFixedPoolTokens, 1), NewLimits(GLMContextTokens, GLMDecodePoolTokens, 1),
			Window{1_048_570, 1_048_569}, "closed"},
		// A pool too small to read any prompt rejects all of them, from
		// one token: the window opens at 1.
		{"tiny prefill pool", NewLimits(64, 4, 1), NewLimits(64, 64, 1), Window{1, 57}, "1–57 tokens"},
		{"prefill's limit exactly 0", NewLimits(64, 6, 1), NewLimits(64, 64, 1), Window{1, 57}, "1–57 tokens"},
		{"both tiny: closed", NewLimits(64, 4, 1), NewLimits(64, 4, 1), Window{1, -3}, "closed"},
		{"tiny decode pool: closed", NewLimits(64, 32, 1), NewLimits(64, 4, 1), Window{26, -3}, "closed"},
		// Contexts that differ: a prompt must be below both to reach both
		// servers' intake.
		{"decode's context shorter: closed", glmPrefill, NewLimits(131_072, GLMDecodePoolTokens, 1),
			Window{681_274, 131_065}, "closed"},
		{"prefill's context shorter: bounded by it", NewLimits(131_072, GLMLaunchPoolTokens, 1), NewLimits(GLMContextTokens, GLMDecodePoolTokens, 1),
			Window{131_066, 131_071}, "131,066–131,071 tokens"},
		{"decode's context shorter, still open", NewLimits(GLMContextTokens, GLMLaunchPoolTokens, 1), NewLimits(800_000, GLMDecodePoolTokens, 1),
			Window{681_274, 799_993}, "681,274–799,993 tokens"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := LeakWindow(tc.prefill, tc.decode)
			assert.Equal(t, tc.want, w)
			assert.Equal(t, tc.text, w.String())
			assert.Equal(t, tc.want.First <= tc.want.Last, w.Open())
			assert.Equal(t, max(tc.want.Last-tc.want.First+1, 0), w.Len())
			// The window is exactly the lengths that pass both APIs and
			// prefill's check fails while decode's passes: look at its
			// edges and one past each.
			for _, n := range []int{w.First - 1, w.First, w.Last, w.Last + 1, 1} {
				if n < 1 {
					continue
				}
				in := !tc.prefill.OverAPI(n) && !tc.decode.OverAPI(n) && tc.prefill.Rejects(n) && !tc.decode.Rejects(n)
				assert.Equal(t, in, w.Contains(n), "%d tokens", n)
			}
		})
	}
}

// Config.Window is LeakWindow of the two servers' limits, and
// ReservedPages what decode's DecodePreallocQueue reserves: the prompt's
// pages when decode admits it, one page for its placeholder when not.
func TestConfigWindowAndReservedPages(t *testing.T) {
	demo := DemoConfig()
	assert.Equal(t, Window{122, 153}, demo.Window())
	for _, tc := range []struct{ tokens, pages int }{
		{1, 1}, {16, 1}, {17, 2}, {DemoPromptA, 8}, {121, 8}, {122, 8}, {DemoPromptB, 8}, {128, 8}, {153, 10},
		{154, 1}, {255, 1}, // decode rejects: its placeholder's page
	} {
		assert.Equal(t, tc.pages, demo.ReservedPages(tc.tokens), "%d tokens", tc.tokens)
	}
	sym, _ := PresetBySlug("symmetric")
	assert.False(t, sym.Config.Window().Open())
	b := sym.Ops[1].Send.PromptTokens
	assert.Equal(t, 1, sym.Config.ReservedPages(b), "decode rejects B too: one page for its placeholder")
}
