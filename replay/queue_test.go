package replay

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Logs whose requests overlap in time and wait in DecodePreallocQueue,
// worked out by hand at the demo's sizes (see TestReplayHandMadeLog: pools
// of 8 and 10 pages of 16 tokens, SGLang's page ids from 1, pages handed
// out sorted, the window 122–153) and DefaultTiming (prefill 20,000
// tokens/s, one request at a time; 30 ms per output token). Decode's
// budget (engine.Budget) is its free tokens less max(32 × the requests
// holding pages, the most one of them may still grow by past what all of
// them hold); a request needs max(fill_len + 32, fill_len in whole pages),
// and its prompt plus its output less what is held, within it.

// The queue is first come, first served: a request that would fit waits
// behind the head that does not.
//
//	0 s, line 2, A 80, 10 out: decode 1–5, all A's; prefill 1–5, freed.
//	  Prefill 4 ms, decode 300 ms: it holds its pages until 304 ms.
//	0.1 s, line 3, B 125, 4 out, the window: 5 pages free (80 tokens), one
//	  request holds pages: 80 − max(32, 80+10 − 80) = 48 < 125 + 32. Waits.
//	0.2 s, line 4, C 16, 2 out: 16 + 32 = 48 would fit, but B, at the head,
//	  does not: C waits behind it.
//	304 ms, A frees 1–5: 160 free, B fits; 9 > 5 free, merge: pages 1–8.
//	  Prefill sends B's 1 token from its page 6, never written: decode's
//	  page 1 is B's position 0 and nothing. B reads A's pages 2–5: 4 pages,
//	  64 positions; 6–8 were never written. Waited 204 ms; it holds its
//	  pages until 304 + 0.05 + 120 ms = 424.05 ms.
//	  C: 2 pages free (32), 32 − max(32, 125+4 − 125) = 0 < 48. Waits.
//	424.05 ms, B frees 1–8: C merges and gets page 1 and writes all of it.
//	  Waited 224.05 ms, the longest.
//
// Served last in first out, C would take page 6 at 0.2 s and B would read
// C's 16 positions there too; without the reserve, C would start at 304 ms
// beside B, on page 9, and wait 104 ms.
func TestReplayQueueIsFirstComeFirstServed(t *testing.T) {
	res := run(t, "t,tenant,prompt_tokens,output_tokens\n0,A,80,10\n0.1,B,125,4\n0.2,C,16,2\n", demoOptions())
	v, f := res.Vulnerable, res.Fixed
	assert.Equal(t, []int{3, 3, 0, 1}, []int{v.Requests, v.OK, v.Rejected, v.Window}, "requests, 200s, 400s, window")
	assert.Equal(t, []Pair{{Victim: "A", Recipient: "B", Responses: 1, Pages: 4, Tokens: 64}}, v.Pairs)
	assert.Equal(t, []int64{1, 4, 64}, []int64{int64(v.Leaked), v.LeakedPages, v.LeakedTokens})
	assert.Equal(t, &FirstLeak{Line: 3, At: 304 * time.Millisecond, Tenant: "B", PromptTokens: 125,
		Victims: []Pair{{Victim: "A", Recipient: "B", Responses: 1, Pages: 4, Tokens: 64}}, Instance: 1}, v.FirstLeak)
	assert.Equal(t, 224050*time.Microsecond, v.LongestWait)

	// The fixed door answers B 400 at the door: C fits at once (48 ≤ 48).
	assert.Equal(t, []int{3, 2, 1, 1, 0}, []int{f.Requests, f.OK, f.Rejected, f.Window, f.Leaked})
	assert.Zero(t, f.LongestWait)
}

// The reserve holds a window prompt until both requests before it have
// freed their pages, and so it reads their KV.
//
//	0 s, line 2, V 120, 2 out: decode 1–8 (8: V's in 0–7); prefill 1–8
//	  likewise. It ends at 6 + 60 ms.
//	1 s, line 3, A 16, 2 out: decode has 2 free, merges: page 1, A's;
//	  prefill merges too: its page 1. It holds its page until 1,060.8 ms.
//	1.01 s, line 4, C 16, 2 out: 144 − max(32, 18 − 16) = 112 ≥ 48: page 2,
//	  C's (prefill's page 2). It holds it until 1,010.8 + 60 = 1,070.8 ms.
//	1.02 s, line 5, B 125, 2 out, the window: 128 free, two hold pages:
//	  128 − max(64, 18 − 32) = 64 < 157. Waits.
//	1,060.8 ms, A frees page 1: 144 − max(32, 18 − 16) = 112 < 157. Waits.
//	1,070.8 ms, C frees page 2: 160 ≥ 157; 9 > 8 free, merge: pages 1–8.
//	  Prefill sends B's 1 token from its page 3 (V's): decode's page 1 is
//	  B's position 0 and V's 1–15, over A's. B reads page 1 V 15, page 2
//	  C 16, pages 3–7 V 80, page 8 (13 read) V 8: C's 1 page and 16
//	  positions, V's 6 pages (3–8) and 103. Waited 50.8 ms.
//
// Without the reserve B would fit at once (128 − max(0, −14) = 128, its 8
// pages), on pages 3–10: V's 5 pages and 87 positions, none of C's.
func TestReplayReserveHoldsTheQueue(t *testing.T) {
	res := run(t, "t,tenant,prompt_tokens,output_tokens\n0,V,120,2\n1,A,16,2\n1.01,C,16,2\n1.02,B,125,2\n", demoOptions())
	v := res.Vulnerable
	assert.Equal(t, []int{4, 4, 1}, []int{v.Requests, v.OK, v.Window}, "requests, 200s, window")
	victims := []Pair{
		{Victim: "C", Recipient: "B", Responses: 1, Pages: 1, Tokens: 16},
		{Victim: "V", Recipient: "B", Responses: 1, Pages: 6, Tokens: 103},
	}
	assert.Equal(t, victims, v.Pairs)
	assert.Equal(t, []int64{1, 7, 119}, []int64{int64(v.Leaked), v.LeakedPages, v.LeakedTokens})
	assert.Equal(t, &FirstLeak{Line: 5, At: 1070800 * time.Microsecond, Tenant: "B", PromptTokens: 125, Victims: victims, Instance: 1}, v.FirstLeak)
	assert.Equal(t, 50800*time.Microsecond, v.LongestWait)
}
