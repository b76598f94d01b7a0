package replay

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func demoOptions() Options {
	return Options{Config: engine.DemoConfig(), Timing: DefaultTiming}
}

func run(t *testing.T, log string, opts Options) Result {
	t.Helper()
	res, err := Run(strings.NewReader(log), opts)
	require.NoError(t, err)
	return res
}

// The demo's two requests, replayed, come to what the page shows when it
// sends them: B's 200 carries 7 pages and 119 positions of A's KV; the
// fixed door answers B 400.
func TestReplayTheDemo(t *testing.T) {
	res := run(t, "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n10,B,125,4\n", demoOptions())
	e, err := engine.Replay(engine.DemoConfig(), []engine.Op{
		engine.SendOp(engine.Request{Tenant: "A", PromptTokens: engine.DemoPromptA, Content: engine.DemoSecret}),
		engine.SendOp(engine.Request{Tenant: "B", PromptTokens: engine.DemoPromptB, Content: "x"}),
	})
	require.NoError(t, err)
	b := e.Responses()[1]
	require.True(t, b.Leaked())

	v := res.Vulnerable
	assert.Equal(t, 2, v.Requests)
	assert.Equal(t, 2, v.OK)
	assert.Equal(t, 1, v.Leaked)
	assert.Equal(t, int64(b.ForeignTokens), v.LeakedTokens)
	assert.Equal(t, int64(b.LeakedPages.Len()), v.LeakedPages)
	assert.Equal(t, []Pair{{Victim: "A", Recipient: "B", Responses: 1, Pages: 7, Tokens: 119}}, v.Pairs)
	assert.Equal(t, 1, v.ExposedTenants)
	require.NotNil(t, v.FirstLeak)
	assert.Equal(t, 3, v.FirstLeak.Line)
	assert.Equal(t, "B", v.FirstLeak.Tenant)

	f := res.Fixed
	assert.Equal(t, []int{2, 1, 1, 0}, []int{f.Requests, f.OK, f.Rejected, f.Leaked})
	assert.Nil(t, f.FirstLeak)

	// SGLang's per-server door: decode reserves B's pages, waits out its
	// receiver's timeout and answers 500, having read nothing.
	opts := demoOptions()
	opts.Fix = engine.Upstream
	res = run(t, "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n10,B,125,4\n", opts)
	f = res.Fixed
	assert.Equal(t, []int{2, 1, 0, 1, 0}, []int{f.Requests, f.OK, f.Rejected, f.Failed, f.Leaked})
	assert.Equal(t, engine.Upstream, res.Fix)
	_, err = Run(strings.NewReader("t,tenant,prompt_tokens,output_tokens\n0,A,1,1\n"), Options{Config: engine.DemoConfig(), Timing: DefaultTiming, Fix: engine.Vulnerable})
	assert.ErrorContains(t, err, "fix")
}

// A hand-made log at the demo's sizes, worked out by hand. Prefill's
// max_req_input_len is 122, decode's 138, the context 256; a page holds
// 16 tokens and decode's pool 9 pages, handed out sorted
// (merge_and_sort_free). Each request has ended before the next arrives.
func TestReplayHandMadeLog(t *testing.T) {
	log := strings.Join([]string{
		"t,tenant,prompt_tokens,output_tokens",
		"0,A,120,10", // line 2: pages 0–7, A's KV; page 7 holds 8 tokens
		"0.1,C,16,0", // line 3: page 8, C's KV
		"1,B,125,1",  // line 4: the window; pages 0–7: 7 pages and 119 positions of A's
		"2,B,300,1",  // line 5: over the context: 400 at the API
		"3,B,137,1",  // line 6: the window; pages 0–8: A's 7 pages and 119 positions, C's page and 9 positions
		"4,A,130,1",  // line 7: the window, tenant A; its own KV and 2 positions of C's page 8
		"5,D,200,1",  // line 8: decode rejects too: 400, no read
	}, "\n")
	res := run(t, log, demoOptions())
	v, f := res.Vulnerable, res.Fixed
	assert.Equal(t, []int{7, 5, 2, 3}, []int{v.Requests, v.OK, v.Rejected, v.Window}, "requests, 200s, 400s, window")
	assert.Equal(t, 3, v.Leaked)
	assert.Equal(t, int64(7+8+1), v.LeakedPages)
	assert.Equal(t, int64(119+128+2), v.LeakedTokens)
	assert.Equal(t, 2, v.ExposedTenants)
	assert.Equal(t, []Pair{
		{Victim: "A", Recipient: "B", Responses: 2, Pages: 14, Tokens: 238},
		{Victim: "C", Recipient: "B", Responses: 1, Pages: 1, Tokens: 9},
		{Victim: "C", Recipient: "A", Responses: 1, Pages: 1, Tokens: 2},
	}, v.Pairs)
	assert.Equal(t, 3, v.PairsTotal)
	assert.Equal(t, &FirstLeak{Line: 4, At: time.Second, Tenant: "B", PromptTokens: 125,
		Victims: []Pair{{Victim: "A", Recipient: "B", Responses: 1, Pages: 7, Tokens: 119}}, Instance: 1}, v.FirstLeak)
	assert.Zero(t, v.LongestWait)

	assert.Equal(t, []int{7, 2, 5, 3, 0}, []int{f.Requests, f.OK, f.Rejected, f.Window, f.Leaked})
	assert.Empty(t, f.Pairs)
}
