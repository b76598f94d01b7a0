package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertReleasedOnce checks that every request's pages were freed exactly
// once — or not yet, while its release is deferred — both as the log tells
// it and as the pool mutations did it.
func assertReleasedOnce(t *testing.T, e *Engine) {
	t.Helper()
	byEvents, byMuts := freedByEvents(e.Log().Copy()), freedByMutations(e.Log().Copy())
	assert.Equal(t, byEvents, byMuts, "the release events and the pool mutations agree")
	lingering := map[int]bool{}
	for _, id := range e.Lingering() {
		lingering[id] = true
	}
	for _, r := range e.Responses() {
		want := r.Allocated
		if lingering[r.Request] || r.Unretired {
			want = 0
		}
		assert.Equal(t, want, byEvents[r.Request], "pages freed by request %d (%s)", r.Request, r.State)
	}
	held := 0
	for _, id := range e.Lingering() {
		held += e.Responses()[id-1].Allocated
	}
	m := e.Metrics()
	assert.Equal(t, held+m.PagesUnretired, m.PagesAllocated, "only lingering and unretired requests hold pages between operations")
	assert.Equal(t, held, m.PagesLingering)
	assert.Equal(t, m.PagesTotal, m.PagesFree+m.PagesAllocated)
}

func TestTerminalFinished(t *testing.T) {
	e := newEngine(t, DemoConfig())
	resp := send(t, e, Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret})
	assert.Equal(t, StateFinished, resp.State)
	assert.Equal(t, 200, resp.Status)
	assert.Empty(t, resp.Reason)
	assert.Equal(t, PathNormal, resp.Path)
	assert.Equal(t, 8, resp.Allocated)
	assert.Equal(t, pg(0, 8), resp.ReadPages)
	assert.False(t, resp.WrongStatus)
	assert.Equal(t, "OK: HTTP 200 with tenant A's own 8 pages", resp.Verdict())
	assert.Equal(t, 1, e.Metrics().Finished)
	assertReleasedOnce(t, e)
}

func TestTerminalRejected(t *testing.T) {
	cases := []struct {
		name   string
		mode   Mode
		tokens int
		path   Path
		reason string
	}{
		{"API, vulnerable", Vulnerable, 256, PathAPIReject, "The input (256 tokens) is longer than the model's context length (256 tokens)."},
		{"API, fixed", Fixed, 1 << 20, PathAPIReject, "The input (1048576 tokens) is longer than the model's context length (256 tokens)."},
		{"door, fixed", Fixed, 122, PathPlaceholder, "Input length (122 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate."},
		{"door, fixed, below the context", Fixed, 255, PathPlaceholder, "Input length (255 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DemoConfig()
			cfg.Mode = tc.mode
			e := newEngine(t, cfg)
			resp := send(t, e, Request{Tenant: "B", PromptTokens: tc.tokens, CancelAt: StageDecodeRunning})
			assert.Equal(t, StateRejected, resp.State)
			assert.Equal(t, 400, resp.Status)
			assert.Equal(t, tc.path, resp.Path)
			assert.Equal(t, tc.reason, resp.Reason)
			assert.Zero(t, resp.Allocated)
			assert.Empty(t, resp.CancelledAt, "a rejected request never reaches the cancel")
			m := e.Metrics()
			assert.Equal(t, 1, m.Rejected)
			assert.Equal(t, 1, m.Responses)
			assert.Equal(t, 8, m.PagesFree)
			assertReleasedOnce(t, e)
		})
	}
}

func TestTerminalAbortedAtEveryStage(t *testing.T) {
	type want struct {
		allocated int
		lingering bool
	}
	cases := map[CancelPolicy]map[Stage]want{
		CancelOneHalf: {
			StagePrefillBootstrap: {0, false}, // nothing reserved yet
			StageDecodePrealloc:   {0, false},
			StagePrefillForward:   {8, true}, // prefill, never told, may still write
			StagePrefillTransfer:  {8, true},
			StageDecodeTransfer:   {8, false}, // prefill is done: released at once
			StageDecodeRunning:    {8, false},
		},
		CancelBoth: {
			StagePrefillBootstrap: {0, false},
			StageDecodePrealloc:   {0, false},
			StagePrefillForward:   {8, false},
			StagePrefillTransfer:  {8, false},
			StageDecodeTransfer:   {8, false},
			StageDecodeRunning:    {8, false},
		},
	}
	for _, policy := range []CancelPolicy{CancelOneHalf, CancelBoth} {
		for _, stage := range CancelStages {
			w := cases[policy][stage]
			t.Run(fmt.Sprintf("%s/%s", policy, stage), func(t *testing.T) {
				e := newEngine(t, abortConfig(policy))
				resp := send(t, e, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: stage})
				assert.Equal(t, StateCancelled, resp.State)
				assert.Equal(t, 499, resp.Status)
				assert.Equal(t, "client closed the request at "+string(stage), resp.Reason)
				assert.Equal(t, stage, resp.CancelledAt)
				assert.Equal(t, w.allocated, resp.Allocated)
				assert.Equal(t, w.lingering, resp.Lingering)
				assert.Empty(t, resp.ReadPages, "cancelled before decode read anything")
				assert.Zero(t, resp.ReadStep)

				m := e.Metrics()
				assert.Equal(t, 1, m.Cancelled)
				assert.Zero(t, m.Aborted, "the client cancelled; the engine aborted nothing")
				assert.Zero(t, m.Responses, "a cancelled request gets no response")
				if w.lingering {
					assert.Equal(t, []int{1}, e.Lingering())
					assert.Equal(t, 8, m.PagesLingering)
					assert.Equal(t, 8, m.PagesAllocated)
					assert.Contains(t, resp.Verdict(), "decode still holds 8 pages, waiting for the prefill half")
				} else {
					assert.Empty(t, e.Lingering())
					assert.Zero(t, m.PagesLingering)
					assert.Zero(t, m.PagesAllocated)
					assert.Equal(t, "Cancelled by the client at "+string(stage)+"; every page released", resp.Verdict())
				}
				// Only a transfer that happened wrote anything: a cancel at
				// prefill.transfer stops it, one at decode.* comes after it.
				wrote := stage == StageDecodeTransfer || stage == StageDecodeRunning
				if wrote {
					assert.Equal(t, 8, m.PagesStale)
				} else {
					assert.Zero(t, m.PagesStale)
				}

				router := 0
				for _, ev := range e.Log().Copy() {
					if ev.Stage == StageRouter {
						router++
						assert.Contains(t, ev.Text, "The client cancels at "+string(stage))
					}
				}
				assert.Equal(t, 1, router)
				assertReleasedOnce(t, e)

				if w.lingering {
					require.NoError(t, e.Settle(1, OutcomeDrained))
					assertReleasedOnce(t, e)
					assert.Zero(t, e.Metrics().PagesAllocated)
				}
			})
		}
	}
}

func TestTerminalErrored(t *testing.T) {
	for _, tokens := range []int{DemoPromptA, DemoPromptB} { // normal and placeholder paths
		e := newEngine(t, DemoConfig())
		resp := send(t, e, Request{Tenant: "A", PromptTokens: tokens, FailTransfer: true})
		assert.Equal(t, StateErrored, resp.State)
		assert.Equal(t, 500, resp.Status, "SGLang answers a failed transfer with an internal error")
		assert.Equal(t, "KV transfer failed (KVPoll.Failed): Internal Server Error", resp.Reason)
		assert.Equal(t, 8, resp.Allocated)
		assert.Empty(t, resp.ReadPages)
		assert.False(t, resp.Leaked())
		assert.Equal(t, "Errored with 500: KV transfer failed (KVPoll.Failed): Internal Server Error", resp.Verdict())
		assert.Equal(t, 1, e.Metrics().Errored)
		assert.Zero(t, e.Metrics().PagesStale, "nothing was written")
		assert.Equal(t, PollFailed, eventsOf(e.Log().Copy(), 1)[5].Poll)
		assertReleasedOnce(t, e)
	}
}

// A prealloc that finds too few free pages parks the request in
// DecodePreallocQueue; the Settle that frees pages resumes it, in queue
// order, and the rest of its pipeline runs then.
func TestPreallocWaitsForPages(t *testing.T) {
	e := newEngine(t, abortConfig(CancelOneHalf))
	send(t, e, Request{Tenant: "A", PromptTokens: 8, CancelAt: StagePrefillForward})
	send(t, e, Request{Tenant: "A", PromptTokens: 8, CancelAt: StagePrefillTransfer})
	w1 := send(t, e, Request{Tenant: "B", PromptTokens: 1})
	w2 := send(t, e, Request{Tenant: "C", PromptTokens: 9}) // needs 9 pages: more than one slot frees
	for _, w := range []Response{w1, w2} {
		assert.Equal(t, StateWaiting, w.State)
		assert.Zero(t, w.Status, "no answer yet")
		assert.Zero(t, w.Allocated)
		assert.Equal(t, "Waiting in DecodePreallocQueue for free pages; retried when pages are released", w.Verdict())
	}
	assert.Equal(t, []int{3, 4}, e.Waiting())
	assert.Equal(t, 2, e.Metrics().Waiting)
	wait := eventsOf(e.Log().Copy(), 3)[3]
	assert.Equal(t, StageDecodePrealloc, wait.Stage)
	assert.Contains(t, wait.Text, "8 pages needed, 0 free")
	assert.Equal(t, PollBootstrapping, wait.Poll)
	assert.Empty(t, wait.muts)

	require.NoError(t, e.Settle(1, OutcomeDrained))
	r3 := e.Responses()[2]
	assert.Equal(t, StateFinished, r3.State, "B's request fits the freed slot and runs to its response")
	assert.Equal(t, 200, r3.Status)
	assert.Equal(t, []int{4}, e.Waiting(), "C still needs 9 pages; 0 are free")
	resumed := eventsOf(e.Log().Copy(), 3)[4]
	assert.Contains(t, resumed.Text, "Retried from DecodePreallocQueue")
	assert.Equal(t, PollWaitingForInput, resumed.Poll)

	require.NoError(t, e.Settle(2, OutcomeError))
	assert.Equal(t, StateFinished, e.Responses()[3].State)
	assert.Empty(t, e.Waiting())
	m := e.Metrics()
	assert.Equal(t, 2, m.Finished)
	assert.Zero(t, m.Waiting)
	assertReleasedOnce(t, e)
}

func TestSettle(t *testing.T) {
	cases := []struct {
		outcome Outcome
		events  []step // what Settle adds to the log
		writer  int32  // who last wrote pages 0–7 afterwards
		stale   int
	}{
		{OutcomeDrained, []step{{StagePrefillTransfer, HalfPrefill, pg(0, 8)}, {StageRelease, HalfDecode, pg(0, 8)}}, 1, 16},
		{OutcomeTimeout, []step{{StageRelease, HalfDecode, nil}, {StageRelease, HalfDecode, pg(0, 8)}}, 0, 8},
		{OutcomeError, []step{{StagePrefillTransfer, HalfPrefill, nil}, {StageRelease, HalfDecode, pg(0, 8)}}, 0, 8},
	}
	for _, tc := range cases {
		t.Run(string(tc.outcome), func(t *testing.T) {
			e := newEngine(t, abortConfig(CancelOneHalf))
			send(t, e, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillTransfer})
			send(t, e, Request{Tenant: "B", PromptTokens: 8})
			require.Equal(t, []int{1}, e.Lingering())
			require.True(t, e.Responses()[0].Lingering)
			n := e.Log().Len()

			require.NoError(t, e.Settle(1, tc.outcome))
			added := e.Log().Copy()[n:]
			assert.Equal(t, tc.events, steps(added))
			assert.Contains(t, added[len(added)-1].Text, "deferred release: "+string(tc.outcome))
			for _, ev := range added {
				assert.Equal(t, 1, ev.Request)
				assert.Equal(t, "A", ev.Tenant)
			}

			m := e.Metrics()
			for _, o := range Outcomes {
				want := 0
				if o == tc.outcome {
					want = 1
				}
				assert.Equal(t, want, m.DeferredRelease[o], o)
			}
			assert.Zero(t, m.PagesLingering)
			assert.Zero(t, m.PagesAllocated)
			assert.Equal(t, 16, m.PagesFree)
			assert.Equal(t, tc.stale, m.PagesStale)
			assert.Empty(t, e.Lingering())
			assert.False(t, e.Responses()[0].Lingering)
			assert.Equal(t, StateCancelled, e.Responses()[0].State, "settling does not change how the request ended")
			for id := range 8 {
				assert.Equal(t, tc.writer, e.pool.writer[id])
			}
			assertReleasedOnce(t, e)

			// The released pages come back first (LIFO): a placeholder of
			// tenant C reads them.
			resp := send(t, e, Request{Tenant: "C", PromptTokens: 20})
			assert.Equal(t, pg(0, 8), resp.ReadPages)
			switch tc.outcome {
			case OutcomeDrained:
				assert.Equal(t, []Leak{{Tenant: "A", Pages: 7}}, resp.Leaks, "the drained pages are stale like any other")
				assert.Empty(t, resp.LateWriteFrom, "the drain landed before the pages were freed")
			case OutcomeTimeout:
				// The second bug class: the transfer still in flight lands in
				// C's own pages, the placeholder's page included.
				assert.Equal(t, []Leak{{Tenant: "A", Pages: 8}}, resp.Leaks)
				assert.Equal(t, []int{1}, resp.LateWriteFrom)
				assert.Contains(t, resp.Verdict(), "written late into its own pages by r1's prefill half")
				late := eventsOf(e.Log().Copy(), 1)
				ev := late[len(late)-1]
				assert.Equal(t, 3, ev.Victim)
				assert.Equal(t, pg(0, 8), ev.Pages)
				assert.Contains(t, ev.Text, "handed 0–7 to r3 (tenant C)")
				assert.Equal(t, 1, e.Metrics().LateWrites)
			case OutcomeError:
				assert.False(t, resp.Leaked())
				assert.Equal(t, 7, resp.ZeroedPages)
			}
		})
	}
}

// A drain writes only the pages prefill would have written: the prompt's,
// not the rest of the slot.
func TestSettleDrainWritesOnlyThePrompt(t *testing.T) {
	for _, tc := range []struct {
		tokens  int
		written Pages
	}{{3, pg(0, 3)}, {20, pg(0, 1)} /* placeholder: one token */} {
		e := newEngine(t, abortConfig(CancelOneHalf))
		send(t, e, Request{Tenant: "A", PromptTokens: tc.tokens, CancelAt: StagePrefillForward})
		n := e.Log().Len()
		require.NoError(t, e.Settle(1, OutcomeDrained))
		assert.Equal(t, tc.written, e.Log().At(n).Pages)
		assert.Equal(t, tc.written.Len(), e.Metrics().PagesStale)
	}
}

func TestSettleWithScrub(t *testing.T) {
	cfg := abortConfig(CancelOneHalf)
	cfg.ScrubOnFree = true
	e := newEngine(t, cfg)
	send(t, e, Request{Tenant: "A", PromptTokens: 8, CancelAt: StagePrefillTransfer})
	require.NoError(t, e.Settle(1, OutcomeDrained))
	m := e.Metrics()
	assert.Equal(t, 8, m.ScrubWrites)
	assert.Equal(t, int64(8*DefaultKVBytesTok), m.ScrubBytes)
	assert.Zero(t, m.PagesStale, "the drained pages were scrubbed on free")
}

func TestSettleErrorsChangeNothing(t *testing.T) {
	e := newEngine(t, abortConfig(CancelOneHalf))
	send(t, e, Request{Tenant: "A", PromptTokens: 8, CancelAt: StagePrefillTransfer})
	send(t, e, Request{Tenant: "B", PromptTokens: 8})
	send(t, e, Request{Tenant: "B", PromptTokens: 8, CancelAt: StageDecodeRunning}) // aborted, not lingering
	cases := []struct {
		name    string
		request int
		outcome Outcome
		msg     string
	}{
		{"request 0", 0, OutcomeDrained, "request 0 has no deferred release to settle"},
		{"negative request", -1, OutcomeDrained, "request -1 has no deferred release"},
		{"unknown request", 4, OutcomeDrained, "request 4 has no deferred release"},
		{"finished request", 2, OutcomeTimeout, "request 2 has no deferred release"},
		{"aborted, released at once", 3, OutcomeError, "request 3 has no deferred release"},
		{"bad outcome", 1, "bogus", `outcome "bogus": must be drained, timeout or error`},
		{"empty outcome", 1, "", `outcome "": must be drained, timeout or error`},
		{"wrong case outcome", 1, "Drained", `outcome "Drained"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := capture(e)
			err := e.Settle(tc.request, tc.outcome)
			var re *RequestError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, "settle", re.Field)
			assert.Contains(t, err.Error(), tc.msg)
			assert.Equal(t, before, capture(e))
			assert.Error(t, e.Apply(SettleOp(tc.request, tc.outcome)))
			assert.Equal(t, before, capture(e))
		})
	}
	require.NoError(t, e.Settle(1, OutcomeTimeout))
	before := capture(e)
	assert.Error(t, e.Settle(1, OutcomeTimeout), "a release is settled once")
	assert.Equal(t, before, capture(e))
}

// Every terminal state in one run: each request gives back exactly what it
// took, once.
func TestEveryTerminalStateReleasesOnce(t *testing.T) {
	cfg := Config{ContextTokens: 64, PoolTokens: 32, PageTokens: 1, SlotPages: 8,
		Mode: Vulnerable, Allocator: LIFO, Cancel: CancelOneHalf, KVBytesPerToken: 1}
	e := newEngine(t, cfg)
	reqs := []Request{
		{Tenant: "A", PromptTokens: 8, Content: DemoSecret},             // finished
		{Tenant: "B", PromptTokens: 40},                                 // placeholder: finished, leaks
		{Tenant: "C", PromptTokens: 65},                                 // API reject
		{Tenant: "A", PromptTokens: 12, FailTransfer: true},             // 500
		{Tenant: "B", PromptTokens: 8, CancelAt: StagePrefillForward},   // lingers
		{Tenant: "C", PromptTokens: 8, CancelAt: StageDecodeTransfer},   // aborted, released
		{Tenant: "A", PromptTokens: 16, CancelAt: StagePrefillTransfer}, // lingers
		{Tenant: "B", PromptTokens: 9},                                  // waits: 8 free
		{Tenant: "C", PromptTokens: 40, CancelAt: StageDecodeRunning},   // placeholder, cancelled
	}
	for _, r := range reqs {
		send(t, e, r)
		assertReleasedOnce(t, e)
	}
	states := []State{}
	for _, r := range e.Responses() {
		states = append(states, r.State)
	}
	assert.Equal(t, []State{StateFinished, StateFinished, StateRejected, StateErrored, StateCancelled,
		StateCancelled, StateCancelled, StateWaiting, StateCancelled}, states)
	assert.Equal(t, []int{5, 7}, e.Lingering())
	require.NoError(t, e.Settle(7, OutcomeTimeout))
	assertReleasedOnce(t, e)
	r8 := e.Responses()[7]
	assert.Equal(t, StateFinished, r8.State, "the timeout freed 16 pages: request 8 goes on")
	assert.Equal(t, []int{7}, r8.LateWriteFrom, "and request 7's transfer lands in its pages")
	require.NoError(t, e.Settle(5, OutcomeError))
	assertReleasedOnce(t, e)
	m := e.Metrics()
	assert.Zero(t, m.PagesAllocated)
	assert.Equal(t, map[Outcome]int{OutcomeDrained: 0, OutcomeTimeout: 1, OutcomeError: 1}, m.DeferredRelease)
	assert.Equal(t, Metrics{
		Requests: 9, Responses: 5, LeakedResponses: 2, LeakedPages: 7 + 9, WrongStatus: 1,
		Finished: 3, Rejected: 1, Errored: 1, Cancelled: 4,
		PagesTotal: 32, PagesFree: 32, PagesStale: m.PagesStale,
		DeferredRelease: m.DeferredRelease, LateWrites: 1,
	}, m)
}
