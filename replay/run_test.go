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

// A hand-made log at the demo's sizes (engine.DemoConfig), worked out by
// hand. Prefill's pool is 8 pages, decode's 10, of 16 tokens; SGLang's
// page ids, from 1, are used here. Prefill rejects a prompt of 122 tokens
// or more (max_req_input_len min(256−1, 128−1) − 5), decode one of 154 or
// more (min(255, 159) − 5): the window is 122–153. Decode's prealloc budget
// on an idle pool is 160 tokens, and a request needs fill_len + 32 (the
// reserve) of it, so a window prompt past 128 tokens never fits. Both
// pools hand out pages sorted (merge_and_sort_free): freed pages wait in
// release_pages until free_pages runs short (for decode, when
// fill_len/16 + 2 exceeds it). Each request has ended before the next
// arrives (the longest, line 2, at 6 ms of prefill and 10 × 30 ms).
//
//	line 2, A 120: decode 1–8 (1–7 A's, 8 A's in 0–7); prefill 1–8 likewise.
//	line 3, C 40: decode is short (2 free) and merges: C gets 1–3; prefill
//	  merges too, C's 40 tokens go to its pages 1–3, whose page 3 keeps A's
//	  KV in 8–15, and the whole-page transfer carries that into decode's 3.
//	  Decode now: 1–2 C's, 3 C's in 0–7 and A's in 8–15, 4–7 A's, 8 A's in 0–7.
//	line 4, B 125, the window: 7 free, 125/16 + 2 = 9 > 7, merge: pages 1–8.
//	  Prefill sends 1 token from its page 4 (A's): decode's page 1 becomes
//	  B's position 0 and A's 1–15. B attends over 125 positions:
//	  page 1 A 15; page 2 C 16; page 3 C 8, A 8; pages 4–7 A 64; page 8
//	  (13 read) A 8, nothing 5. A: pages 4–8, 5 pages, 15+8+64+8 = 95;
//	  C: pages 2–3, 2 pages, 24. 7 pages and 119 positions of others' KV.
//	line 5, B 300: over the context: 400 at the API.
//	line 6, B 137, the window: 137 + 32 > 160, it never fits.
//	line 7, A 128, the window: merge, pages 1–8 (page 1 at 128 + 32 = 160,
//	  the whole budget). Prefill's page 5 is A's, so decode's page 1 is all
//	  A's; page 2 C 16, page 3 C 8: C's 2 pages and 24 positions.
//	line 8, D 200: decode rejects too: one placeholder page, 400, no read.
//
// The fixed door answers every window prompt and line 8 400 at the door.
func TestReplayHandMadeLog(t *testing.T) {
	res := run(t, handMadeLog, demoOptions())
	v, f := res.Vulnerable, res.Fixed
	assert.Equal(t, []int{7, 4, 2, 0, 3}, []int{v.Requests, v.OK, v.Rejected, v.Failed, v.Window}, "requests, 200s, 400s, 500s, window")
	assert.Equal(t, 1, v.NeverFit)
	assert.Equal(t, []int{6}, v.NeverFitLines)
	assert.Equal(t, 2, v.Leaked)
	assert.Equal(t, int64(7+2), v.LeakedPages)
	assert.Equal(t, int64(119+24), v.LeakedTokens)
	assert.Equal(t, 2, v.ExposedTenants)
	assert.Equal(t, []Pair{
		{Victim: "C", Recipient: "B", Responses: 1, Pages: 2, Tokens: 24},
		{Victim: "A", Recipient: "B", Responses: 1, Pages: 5, Tokens: 95},
		{Victim: "C", Recipient: "A", Responses: 1, Pages: 2, Tokens: 24},
	}, v.Pairs)
	assert.Equal(t, 3, v.PairsTotal)
	assert.Equal(t, &FirstLeak{Line: 4, At: 2 * time.Second, Tenant: "B", PromptTokens: 125,
		Victims: []Pair{
			{Victim: "C", Recipient: "B", Responses: 1, Pages: 2, Tokens: 24},
			{Victim: "A", Recipient: "B", Responses: 1, Pages: 5, Tokens: 95},
		}, Instance: 1}, v.FirstLeak)
	assert.Zero(t, v.LongestWait)
	assert.Contains(t, res.Notes, neverFitNote(v, res.Config))
	assert.Contains(t, neverFitNote(v, res.Config), "1 request never fit decode's prealloc budget, even on an idle pool of 160 tokens with 32 reserved for decoding (log line 6)")

	assert.Equal(t, []int{7, 2, 5, 3, 0, 0}, []int{f.Requests, f.OK, f.Rejected, f.Window, f.Leaked, f.NeverFit})
	assert.Empty(t, f.Pairs)
}
