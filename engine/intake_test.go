package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each server's validate_input_length against its own pool, at both
// servers' edges, on a fresh engine (so no page holds another tenant's KV):
//   - both admit: the normal path, read in full;
//   - prefill rejects, decode admits: the leak path — decode reserves,
//     commits and attends over the whole prompt, prefill writes one token,
//     and the vulnerable door answers 200;
//   - prefill rejects, decode admits, but init_req_max_new_tokens leaves
//     decode no token to generate: a wrong 200, nothing attended;
//   - both reject: decode reserves one page for its own placeholder, and
//     check_finished turns its pending abort into the client's 400 with
//     decode's message in its prebuilt batch, before it attends.
//
// The API refuses a prompt of the context's length before either server.
func TestIntakeAtBothServersEdges(t *testing.T) {
	cfg := func(context, pool, dpool, page int) Config {
		return Config{ContextTokens: context, PoolTokens: pool, DecodePoolTokens: dpool, PageTokens: page,
			Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	}
	glm := cfg(GLMContextTokens, GLMLaunchPoolTokens, GLMDecodePoolTokens, 1) // prefill 681,274, decode 1,048,570
	narrow := cfg(GLMContextTokens, GLMLaunchPoolTokens, 900_000, 1)          // decode 899,994
	backed := cfg(GLMContextTokens, GLMFixedPoolTokens, GLMDecodePoolTokens, 1)
	demo := DemoConfig() // prefill 122, decode 154, 16-token pages
	unreserved := demo   // the same without decode's 32-token reserve
	unreserved.ReservedDecodeTokens = 0
	partial := cfg(41, 10, 12, 3) // 3 whole pages (9 tokens): 3; 4 pages (12 tokens): 6
	tiny := cfg(64, 4, 64, 1)     // prefill reads nothing: -2; decode 58
	const (
		both    = "both admit"
		leak    = "prefill rejects, decode admits"
		unread  = "prefill rejects, decode admits, nothing to decode"
		waits   = "prefill rejects, decode admits, never preallocated"
		neither = "both reject"
		api     = "the API refuses"
	)
	cases := []struct {
		name   string
		cfg    Config
		tokens int
		want   string
		quotes []string // what the intake events must say
	}{
		{"prefill: longest it reads", glm, 681_273, both, []string{
			"The prefill server: validate_input_length: 681,273 tokens is below its max_req_input_len 681,274 (min(context 1,048,576 − 1, pool 681,280 − 1) − 5)",
			"The decode server: init_req_max_new_tokens leaves max_new_tokens 128; validate_input_length: 681,273 tokens is below its max_req_input_len 1,048,570"}},
		{"prefill: its max_req_input_len", glm, 681_274, leak, []string{
			"Input length (681274 tokens) exceeds the maximum allowed length (681274 tokens).",
			"on prefill the prompt becomes one placeholder token",
			"The decode server: init_req_max_new_tokens leaves max_new_tokens 128; validate_input_length: 681,274 tokens is below its max_req_input_len 1,048,570"}},
		{"prefill: its pool", glm, GLMLaunchPoolTokens, leak, []string{"Input length (681280 tokens) exceeds the maximum allowed length (681274 tokens)."}},
		{"decode: longest it reads", narrow, 899_993, leak, []string{"899,993 tokens is below its max_req_input_len 899,994"}},
		{"decode: its max_req_input_len", narrow, 899_994, neither, []string{
			"Input length (899994 tokens) exceeds the maximum allowed length (681274 tokens).",
			"Input length (899994 tokens) exceeds the maximum allowed length (899994 tokens).",
			"on decode the prompt becomes one placeholder token"}},
		{"decode: the context's last token", narrow, GLMContextTokens - 1, neither, nil},
		{"context: longest both read", backed, GLMContextTokens - 7, both, []string{"1,048,569 tokens is below its max_req_input_len 1,048,570"}},
		{"context: max_req_input_len on both", backed, GLMContextTokens - 6, neither, []string{"Input length (1048570 tokens) exceeds the maximum allowed length (1048570 tokens)."}},
		{"context: the context itself", backed, GLMContextTokens, api, []string{"The input (1048576 tokens) is longer than the model's context length (1048576 tokens)."}},
		{"demo: A", demo, DemoPromptA, both, nil},
		{"demo: prefill's edge", demo, 121, both, nil},
		{"demo: B", demo, DemoPromptB, leak, nil},
		{"demo: the longest decode decodes", demo, 128, leak, []string{"init_req_max_new_tokens leaves max_new_tokens 15"}},
		{"demo: decode's last, reserved", demo, 153, waits, []string{"init_req_max_new_tokens leaves max_new_tokens 0"}},
		{"demo: decode's last, no reserve", unreserved, 153, unread, nil},
		{"demo: decode's edge", demo, 154, neither, nil},
		{"demo: the context", demo, 256, api, nil},
		{"whole pages: longest both read", partial, 2, both, []string{"2 tokens is below its max_req_input_len 3 (min(context 41 − 1, pool 9 − 1) − 5)"}},
		{"whole pages: prefill's edge", partial, 3, leak, nil},
		{"whole pages: decode's last", partial, 5, leak, nil},
		{"whole pages: decode's edge", partial, 6, neither, []string{"6 tokens is at least its max_req_input_len 6 (min(context 41 − 1, pool 12 − 1) − 5)"}},
		{"tiny prefill pool: one token", tiny, 1, leak, []string{"Input length (1 tokens) exceeds the maximum allowed length (-2 tokens)."}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want == leak || tc.want == unread || tc.want == waits, tc.cfg.Window().Contains(tc.tokens), "the window is the leak path's lengths")
			e := newEngine(t, tc.cfg)
			resp := send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
			intake := textOf(e.Log().Copy(), StageIntake)
			for _, q := range tc.quotes {
				assert.Contains(t, intake, q)
			}
			pages := func(n int) int { return (n + tc.cfg.PageTokens - 1) / tc.cfg.PageTokens }
			decodeMsg := inputLengthMessage(tc.tokens, tc.cfg.LimitsOf(ServerDecode).MaxReqInputLen())
			switch tc.want {
			case both:
				assert.Equal(t, PathNormal, resp.Path)
				assert.Equal(t, 200, resp.Status)
				assert.False(t, resp.WrongStatus)
				assert.Equal(t, []int{tc.tokens, tc.tokens, tc.tokens, tc.tokens, 0, 0}, counts(resp))
				assert.Equal(t, pages(tc.tokens), resp.Allocated)
			case leak:
				assert.Equal(t, PathPlaceholder, resp.Path)
				assert.True(t, resp.PrefillRejected)
				assert.False(t, resp.DecodeRejected)
				assert.Equal(t, 200, resp.Status, "the vulnerable door answers 200")
				assert.True(t, resp.WrongStatus)
				assert.Equal(t, []int{tc.tokens, 1, tc.tokens, 1, 0, tc.tokens - 1}, counts(resp),
					"decode attends over the whole prompt; prefill wrote one token; a cold pool holds nothing else")
				assert.Equal(t, pages(tc.tokens), resp.Allocated)
			case unread:
				assert.Equal(t, PathPlaceholder, resp.Path)
				assert.Equal(t, 200, resp.Status, "the vulnerable door answers 200")
				assert.True(t, resp.WrongStatus)
				assert.Zero(t, resp.MaxNew)
				assert.Empty(t, resp.ReadPages, "finished in decode's prebuilt batch")
				assert.False(t, resp.Leaked())
			case waits:
				assert.Equal(t, StateWaiting, resp.State)
				assert.Equal(t, "153 + 32 reserved > 160 free", resp.Wait)
				assert.Zero(t, resp.Allocated)
				return
			case neither:
				assert.Equal(t, PathPlaceholder, resp.Path)
				assert.True(t, resp.PrefillRejected)
				assert.True(t, resp.DecodeRejected)
				assert.Equal(t, StateRejected, resp.State)
				assert.Equal(t, 400, resp.Status, "decode's check_finished answers its pending 400")
				assert.Equal(t, decodeMsg, resp.Reason, "the router returns decode's response")
				assert.False(t, resp.WrongStatus)
				assert.Equal(t, 1, resp.Allocated, "decode reserves one page for its placeholder")
				assert.Equal(t, []int{1, 1, 0, 0, 0, 0}, counts(resp), "prefill sent its placeholder; decode attends over nothing")
				assert.Empty(t, resp.ReadPages)
			case api:
				assert.Equal(t, PathAPIReject, resp.Path)
				assert.Equal(t, 400, resp.Status)
				assert.Equal(t, apiMessage(tc.tokens, tc.cfg.ContextTokens), resp.Reason)
				assert.Zero(t, resp.Allocated)
				assert.Empty(t, e.Log().Copy()[0].muts)
			}
			assertReleasedOnce(t, e)

			// The patched door refuses every prompt a server rejected, before
			// any page; its 400 is decode's when decode rejected too.
			fixed := tc.cfg
			fixed.Mode = Fixed
			e = newEngine(t, fixed)
			resp = send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens})
			if tc.want == both {
				assert.Equal(t, 200, resp.Status)
				return
			}
			assert.Equal(t, 400, resp.Status)
			assert.Zero(t, resp.Allocated)
			assert.Zero(t, e.Metrics().Prefill.Allocated+e.Metrics().Decode.Allocated)
			switch tc.want {
			case leak:
				assert.Equal(t, inputLengthMessage(tc.tokens, tc.cfg.LimitsOf(ServerPrefill).MaxReqInputLen()), resp.Reason)
			case neither:
				assert.Equal(t, decodeMsg, resp.Reason, "the same 400 as the vulnerable door's")
			}
		})
	}
}
