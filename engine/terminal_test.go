package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// assertReleasedOnce checks that every request's pages on both servers
// were freed exactly once — or not yet, while it holds them: a deferred
// release, an aborted request nobody retired, a request waiting for
// prefill's pool with its decode reservation — both as the log tells it
// and as the pool mutations did it.
func assertReleasedOnce(t *testing.T, e *Engine) {
	t.Helper()
	events := e.Log().Copy()
	for _, s := range Servers {
		assert.Equal(t, freedByEvents(events, s), freedByMutations(events, s), "%s: the release events and the pool mutations agree", s)
	}
	freed := freedByEvents(events, ServerDecode)
	lingering := map[int]bool{}
	for _, id := range e.Lingering() {
		lingering[id] = true
	}
	held, heldLingering := 0, 0
	for _, r := range e.Responses() {
		keeps := lingering[r.Request] || r.Unretired || r.State == StateWaiting
		want := r.Allocated
		if keeps {
			want = 0
		}
		assert.Equal(t, want, freed[r.Request], "decode pages freed by request %d (%s)", r.Request, r.State)
		if lingering[r.Request] {
			heldLingering += r.Allocated
		}
		if keeps && !r.Unretired {
			held += r.Allocated
		}
	}
	m := e.Metrics()
	assert.Equal(t, held+m.PagesUnretired, m.Decode.Allocated, "only lingering, unretired and waiting requests hold decode pages between operations")
	assert.Equal(t, heldLingering, m.PagesLingering)
	assert.Equal(t, m.Decode.Total, m.Decode.Free+m.Decode.Allocated)

	// Prefill frees what its forward pass took once its half ends: only a
	// lingering request, or one whose late write has not landed, keeps it.
	late := map[int32]bool{}
	for _, w := range e.late {
		late[w.from.id] = true
	}
	took, gave := allocatedByMutations(events, ServerPrefill), freedByMutations(events, ServerPrefill)
	heldPrefill := 0
	for _, r := range e.reqs {
		n := took[int(r.id)] - gave[int(r.id)]
		assert.Equal(t, r.prefillKV.Len(), n, "prefill pages request %d still holds", r.id)
		if n > 0 {
			assert.True(t, r.linger != nil || late[r.id], "request %d holds prefill pages: only while its half may still write", r.id)
		}
		assert.LessOrEqual(t, gave[int(r.id)], took[int(r.id)], "request %d frees no prefill page twice", r.id)
		heldPrefill += n
	}
	assert.Equal(t, heldPrefill, m.Prefill.Allocated)
	assert.Equal(t, m.Prefill.Total, m.Prefill.Free+m.Prefill.Allocated)
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
		// Both servers reject 255 tokens: the router returns decode's 400.
		{"door, fixed, below the context", Fixed, 255, PathPlaceholder, "Input length (255 tokens) exceeds the maximum allowed length (154 tokens). Use a shorter input or enable --allow-auto-truncate."},
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
			assert.Equal(t, []int{8, 10}, []int{m.Prefill.Free, m.Decode.Free}, "nothing allocated on either server")
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
					assert.Equal(t, 8, m.Decode.Allocated)
					assert.Contains(t, resp.Verdict(), "decode still holds 8 pages, waiting for the prefill half")
				} else {
					assert.Empty(t, e.Lingering())
					assert.Zero(t, m.PagesLingering)
					assert.Zero(t, m.Decode.Allocated)
					assert.Equal(t, "Cancelled by the client at "+string(stage)+"; every page released", resp.Verdict())
				}
				// Only a transfer that happened wrote anything: a cancel at
				// prefill.transfer stops it, one at decode.* comes after it.
				wrote := stage == StageDecodeTransfer || stage == StageDecodeRunning
				if wrote {
					assert.Equal(t, 8, m.Decode.Stale)
				} else {
					assert.Zero(t, m.Decode.Stale)
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
					assert.Zero(t, e.Metrics().Decode.Allocated)
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
		assert.Zero(t, e.Metrics().Decode.Stale, "nothing was written")
		events := eventsOf(e.Log().Copy(), 1)
		assert.Equal(t, PollFailed, events[stepOf(t, events, 1, StagePrefillForward, ServerPrefill)].Poll, "the transfer after the forward pass fails")
		assert.Equal(t, StagePrefillTransfer, events[stepOf(t, events, 1, StagePrefillForward, ServerPrefill)].Stage)
		assertReleasedOnce(t, e)
	}
}

// A request that does not fit decode's prealloc budget parks in
// DecodePreallocQueue, and the request behind it waits too (first come,
// first served); the Settle that frees pages resumes them, in queue order,
// and the rest of their pipeline runs then. Every request asks for 2 new
// tokens, so that each needs its prompt + 2 free tokens (the budget's
// growth term; the pools keep no reserve).
func TestPreallocWaitsForPages(t *testing.T) {
	e := newEngine(t, abortConfig(CancelOneHalf))
	send(t, e, Request{Tenant: "A", PromptTokens: 6, MaxNewTokens: 2, CancelAt: StagePrefillForward})
	send(t, e, Request{Tenant: "A", PromptTokens: 6, MaxNewTokens: 2, CancelAt: StagePrefillTransfer})
	w1 := send(t, e, Request{Tenant: "B", PromptTokens: 3, MaxNewTokens: 2})
	w2 := send(t, e, Request{Tenant: "C", PromptTokens: 9, MaxNewTokens: 2}) // needs 11: more than one release frees
	for _, w := range []Response{w1, w2} {
		assert.Equal(t, StateWaiting, w.State)
		assert.Zero(t, w.Status, "no answer yet")
		assert.Zero(t, w.Allocated)
		assert.Equal(t, []string{"tenant-" + w.Tenant + "'s response : (waiting in DecodePreallocQueue)"}, w.Transcript())
	}
	assert.Equal(t, "Waiting in DecodePreallocQueue: 3 + 2 max_new_tokens > 4 free; retried when pages are released", w1.Verdict())
	assert.Equal(t, "Waiting in DecodePreallocQueue: behind r3; retried when pages are released", w2.Verdict(), "C waits behind B: first come, first served")
	assert.Equal(t, []int{3, 4}, e.Waiting())
	assert.Equal(t, 2, e.Metrics().Waiting)
	events := e.Log().Copy()
	wait := events[stepOf(t, events, 3, StageDecodePrealloc, "")-1]
	assert.Contains(t, wait.Text, "pop_preallocated does not preallocate it: 3 + 2 max_new_tokens > 4 free.", "B's 3 tokens and 2 new ones do not fit the 4 free")
	assert.Equal(t, PollBootstrapping, wait.Poll)
	assert.Empty(t, wait.muts)
	behind := events[stepOf(t, events, 4, StageDecodePrealloc, "")-1]
	assert.Contains(t, behind.Text, "r3 ahead of this request still waits")

	require.NoError(t, e.Settle(1, OutcomeDrained))
	r3 := e.Responses()[2]
	assert.Equal(t, StateFinished, r3.State, "B's request fits the freed pages and runs to its response")
	assert.Equal(t, 200, r3.Status)
	assert.Equal(t, []int{4}, e.Waiting(), "C still needs 9 + 2 tokens; 10 are free")
	assert.Equal(t, "9 + 2 max_new_tokens > 10 free", e.Responses()[3].Wait)
	events = e.Log().Copy()
	resumed := events[stepOf(t, events, 3, StageDecodePrealloc, ServerDecode)-1]
	assert.Contains(t, resumed.Text, "Retried from the queue: ")
	assert.Equal(t, PollWaitingForInput, resumed.Poll)

	require.NoError(t, e.Settle(2, OutcomeError))
	assert.Equal(t, StateFinished, e.Responses()[3].State)
	assert.Empty(t, e.Responses()[3].Wait, "no longer waiting")
	assert.Empty(t, e.Waiting())
	m := e.Metrics()
	assert.Equal(t, 2, m.Finished)
	assert.Zero(t, m.Waiting)
	assertReleasedOnce(t, e)
}

// waitConfig has a prefill pool smaller than decode's, so that a request
// can find decode's pages and not prefill's: prefill 16 one-token pages
// (max_req_input_len 10), decode 64 (58).
func waitConfig() Config {
	return Config{ContextTokens: 64, PoolTokens: 16, DecodePoolTokens: 64, PageTokens: 1,
		Mode: Vulnerable, Allocator: Sorted, Cancel: CancelOneHalf, KVBytesPerToken: 1}
}

// A forward pass that finds too few free pages in prefill's pool parks the
// request in prefill's waiting queue with decode's reservation held; the
// Settle that frees prefill's pages resumes it at the forward pass.
func TestForwardWaitsForPrefillPool(t *testing.T) {
	e := newEngine(t, waitConfig())
	// A's prefill half, never cancelled, keeps its 9 prefill pages.
	send(t, e, Request{Tenant: "A", PromptTokens: 9, Content: DemoSecret, CancelAt: StagePrefillTransfer})
	// B asks for 2 new tokens: with SGLang's default, clamped to 54, it
	// would not fit decode's budget (8 + 54 > 55 free) and would wait in
	// DecodePreallocQueue instead, before prefill's pool is reached.
	w := send(t, e, Request{Tenant: "B", PromptTokens: 8, MaxNewTokens: 2})
	assert.Equal(t, StateWaiting, w.State)
	assert.Zero(t, w.Status)
	assert.Equal(t, 8, w.Allocated, "decode reserved before prefill ran short")
	assert.Equal(t, "Waiting in prefill's waiting queue for free pages of prefill's pool, with decode's 8 pages reserved; retried when pages are released", w.Verdict())
	assert.Equal(t, []string{"tenant-B's response : (waiting in prefill's waiting queue)"}, w.Transcript())
	assert.Equal(t, []int{2}, e.Waiting())
	m := e.Metrics()
	assert.Equal(t, []int{9, 7}, []int{m.Prefill.Allocated, m.Prefill.Free})
	assert.Equal(t, 9+8, m.Decode.Allocated, "A's lingering pages and B's reservation")
	events := e.Log().Copy()
	wait := events[w.Step-1]
	assert.Equal(t, StagePrefillForward, wait.Stage)
	assert.Equal(t, HalfPrefill, wait.Half)
	assert.Contains(t, wait.Text, "Prefill's waiting queue cannot run the forward pass yet — 8 pages needed, 7 free in prefill's pool.")
	assert.Empty(t, wait.muts)
	assertReleasedOnce(t, e)

	require.NoError(t, e.Settle(1, OutcomeDrained))
	assert.Empty(t, e.Waiting())
	r := e.Responses()[1]
	assert.Equal(t, StateFinished, r.State)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, []int{8, 8, 8, 8, 0, 0}, counts(r))
	events = e.Log().Copy()
	resumed := events[stepOf(t, events, 2, StagePrefillForward, ServerPrefill)-1]
	assert.True(t, strings.HasPrefix(resumed.Text, "Retried from the queue: "), resumed.Text)
	assert.Greater(t, resumed.Step, wait.Step)
	m = e.Metrics()
	assert.Zero(t, m.Prefill.Allocated+m.Decode.Allocated)
	assertReleasedOnce(t, e)
}

// DecodePreallocQueue is first come, first served (pop_preallocated
// breaks at the first request that does not fit): C, whose own budget fits
// the free pages, waits behind B, whose does not, and one Settle resumes
// both, B first. Before v4 C took decode's pages ahead of B and waited for
// prefill's pool, and its release sent the retry round again for B; with
// the queue in order that can no longer happen.
func TestRetryGoesRoundAgain(t *testing.T) {
	cfg := waitConfig()
	cfg.DecodePoolTokens = 20 // max_req_input_len 14
	e := newEngine(t, cfg)
	send(t, e, Request{Tenant: "A", PromptTokens: 9, CancelAt: StagePrefillTransfer}) // holds 9 of each pool
	first := send(t, e, Request{Tenant: "B", PromptTokens: 13})                       // 13 > 11 free
	second := send(t, e, Request{Tenant: "C", PromptTokens: 8, MaxNewTokens: 2})      // 8 + 2 ≤ 11, but behind B
	require.Equal(t, []int{0, 0}, []int{first.Allocated, second.Allocated})
	require.Equal(t, []string{"13 + 0 reserved > 11 free", "behind r2"}, []string{first.Wait, second.Wait})
	require.Equal(t, []int{2, 3}, e.Waiting())

	// The settle frees A's 9 pages of each pool: B fits, runs to its
	// response and frees its own; C, next in the queue, follows.
	require.NoError(t, e.Settle(1, OutcomeDrained))
	assert.Empty(t, e.Waiting(), "nobody waits with the pages free")
	assert.Equal(t, []State{StateFinished, StateFinished}, []State{e.Responses()[1].State, e.Responses()[2].State})
	events := e.Log().Copy()
	assert.Less(t, stepOf(t, events, 2, StageDecodePrealloc, ServerDecode), stepOf(t, events, 3, StageDecodePrealloc, ServerDecode), "B reserved before C")
	assertReleasedOnce(t, e)
}

// A late write that lands frees its prefill half's pages: a request
// waiting for prefill's pool is retried then, not only at the next
// Settle — after a timeout there may be none.
func TestLateWriteLandingResumesWaiting(t *testing.T) {
	e := newEngine(t, waitConfig())
	send(t, e, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillTransfer})
	require.NoError(t, e.Settle(1, OutcomeTimeout)) // decode frees A's pages; prefill's wait for the late write
	w := send(t, e, Request{Tenant: "B", PromptTokens: 9})
	require.Equal(t, StateWaiting, w.State, "prefill: 9 needed, 8 free")
	require.Empty(t, e.Lingering(), "nothing left to settle")

	// C's transfer lands A's late write. It asks for 2 new tokens: with
	// SGLang's default, clamped to 60, it would not fit decode's budget
	// beside B's 9 pages (2 + 60 > 55 free) and would never transfer.
	c := send(t, e, Request{Tenant: "C", PromptTokens: 2, MaxNewTokens: 2})
	assert.Equal(t, StateFinished, c.State)
	assert.Equal(t, 1, e.Metrics().LateWrites)
	assert.Empty(t, e.Waiting())
	b := e.Responses()[1]
	assert.Equal(t, StateFinished, b.State, "B resumed once A's prefill pages were free")
	assert.Empty(t, b.LateWriteFrom)
	m := e.Metrics()
	assert.Zero(t, m.Prefill.Allocated+m.Decode.Allocated)
	assertReleasedOnce(t, e)
}

func TestSettle(t *testing.T) {
	cases := []struct {
		outcome Outcome
		events  []step // what Settle adds to the log
		writer  int32  // who last wrote pages 0–7 afterwards
		stale   int
	}{
		// Prefill's half ends with the settle: its pages are freed too —
		// after a timeout, only once its late write lands.
		{OutcomeDrained, []step{{StagePrefillTransfer, HalfPrefill, pg(0, 8)}, {StageRelease, HalfPrefill, pg(0, 8)}, {StageRelease, HalfDecode, pg(0, 8)}}, 1, 16},
		{OutcomeTimeout, []step{{StageRelease, HalfDecode, nil}, {StageRelease, HalfDecode, pg(0, 8)}}, 0, 8},
		{OutcomeError, []step{{StagePrefillTransfer, HalfPrefill, nil}, {StageRelease, HalfPrefill, pg(0, 8)}, {StageRelease, HalfDecode, pg(0, 8)}}, 0, 8},
	}
	for _, tc := range cases {
		t.Run(string(tc.outcome), func(t *testing.T) {
			// Decode's pool admits what prefill's rejects, so that C's
			// 20 tokens below read what the released pages hold.
			cfg := abortConfig(CancelOneHalf)
			cfg.DecodePoolTokens = 32
			e := newEngine(t, cfg)
			send(t, e, Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillTransfer})
			// C asks for 2 new tokens, so that it fits decode's budget
			// beside A's held pages (8 + 2 ≤ 24 free; SGLang's default,
			// clamped to 22, would not) and runs before the settle.
			send(t, e, Request{Tenant: "C", PromptTokens: 8, MaxNewTokens: 2})
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
			assert.Zero(t, m.Decode.Allocated)
			assert.Equal(t, 32, m.Decode.Free)
			assert.Equal(t, tc.stale, m.Decode.Stale)
			assert.Equal(t, tc.outcome == OutcomeTimeout, m.Prefill.Allocated == 8, "prefill keeps its pages until its late write lands")
			assert.Empty(t, e.Lingering())
			assert.False(t, e.Responses()[0].Lingering)
			assert.Equal(t, StateCancelled, e.Responses()[0].State, "settling does not change how the request ended")
			for id := range 8 {
				_, w := e.decode().at(id)
				assert.Equal(t, tc.writer, w)
			}
			assertReleasedOnce(t, e)

			// The released pages come back first (LIFO): C's 20 tokens,
			// which prefill rejects and decode admits, are reserved over
			// them, C's own earlier pages and 4 never written.
			resp := send(t, e, Request{Tenant: "C", PromptTokens: 20})
			assert.Equal(t, pg(0, 20), resp.ReadPages)
			switch tc.outcome {
			case OutcomeDrained:
				assert.Equal(t, []Leak{{Tenant: "A", Pages: 7, Tokens: 7}}, resp.Leaks, "the drained pages are stale like any other")
				assert.Equal(t, []int{1 + 8, 7, 4}, []int{resp.OwnTokens, resp.ForeignTokens, resp.EmptyTokens})
				assert.Empty(t, resp.LateWriteFrom, "the drain landed before the pages were freed")
			case OutcomeTimeout:
				// The second bug class: the transfer still in flight lands in
				// C's own pages, the placeholder's page included.
				assert.Equal(t, []Leak{{Tenant: "A", Pages: 8, Tokens: 8}}, resp.Leaks)
				assert.Equal(t, []int{8, 8, 4}, []int{resp.OwnTokens, resp.ForeignTokens, resp.EmptyTokens})
				assert.Equal(t, []int{1}, resp.LateWriteFrom)
				assert.Contains(t, resp.Verdict(), "written late into its own pages by r1's prefill half")
				late := eventsOf(e.Log().Copy(), 1)
				ev := late[len(late)-1]
				assert.Equal(t, StageRelease, ev.Stage, "prefill frees its pages once its late write landed")
				assert.Equal(t, ServerPrefill, ev.Pool)
				ev = late[len(late)-2]
				assert.Equal(t, 3, ev.Victim)
				assert.Equal(t, pg(0, 8), ev.Pages)
				assert.Contains(t, ev.Text, "handed 1–8 to r3 (tenant C)", "SGLang's page ids, from 1")
				assert.Equal(t, 1, e.Metrics().LateWrites)
				assert.Zero(t, e.Metrics().Prefill.Allocated)
			case OutcomeError:
				assert.False(t, resp.Leaked())
				assert.Equal(t, 7+4, resp.ZeroedPages)
			}
		})
	}
}

// A drain writes only the pages prefill would have written: the prompt's,
// or its placeholder's when both servers rejected it.
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
		assert.Equal(t, tc.written.Len(), e.Metrics().Decode.Stale)
	}
}

func TestSettleWithScrub(t *testing.T) {
	cfg := abortConfig(CancelOneHalf)
	cfg.ScrubOnFree = true
	e := newEngine(t, cfg)
	send(t, e, Request{Tenant: "A", PromptTokens: 8, CancelAt: StagePrefillTransfer})
	require.NoError(t, e.Settle(1, OutcomeDrained))
	m := e.Metrics()
	assert.Equal(t, 8+8, m.ScrubWrites, "prefill's 8 pages and decode's")
	assert.Equal(t, int64(16*DefaultKVBytesTok), m.ScrubBytes)
	assert.Zero(t, m.Decode.Stale, "the drained pages were scrubbed on free")
	assert.Zero(t, m.Prefill.Stale)
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
	// Prefill's pool of 32 tokens rejects 26 tokens or more; decode's of
	// 64 admits up to 57. Each request asks for 2 new tokens: SGLang's
	// default, clamped by init_req_max_new_tokens to 62 − prompt, would make
	// every request need 62 free tokens of decode's budget, one at a time.
	cfg := Config{ContextTokens: 64, PoolTokens: 32, DecodePoolTokens: 64, PageTokens: 1,
		Mode: Vulnerable, Allocator: LIFO, Cancel: CancelOneHalf, KVBytesPerToken: 1}
	e := newEngine(t, cfg)
	reqs := []Request{
		{Tenant: "A", PromptTokens: 8, Content: DemoSecret},             // finished
		{Tenant: "B", PromptTokens: 40},                                 // prefill rejects, decode admits: finished, leaks
		{Tenant: "C", PromptTokens: 65},                                 // API reject
		{Tenant: "A", PromptTokens: 12, FailTransfer: true},             // 500
		{Tenant: "B", PromptTokens: 8, CancelAt: StagePrefillForward},   // lingers
		{Tenant: "C", PromptTokens: 8, CancelAt: StageDecodeTransfer},   // aborted, released
		{Tenant: "A", PromptTokens: 16, CancelAt: StagePrefillTransfer}, // lingers, on both servers
		{Tenant: "B", PromptTokens: 41},                                 // waits: 41 > 40 free on decode
		{Tenant: "C", PromptTokens: 40, CancelAt: StageDecodeRunning},   // waits behind it; prefill rejects, cancelled
	}
	for _, r := range reqs {
		r.MaxNewTokens = 2
		send(t, e, r)
		assertReleasedOnce(t, e)
	}
	states := func() []State {
		var out []State
		for _, r := range e.Responses() {
			out = append(out, r.State)
		}
		return out
	}
	assert.Equal(t, []State{StateFinished, StateFinished, StateRejected, StateErrored, StateCancelled,
		StateCancelled, StateCancelled, StateWaiting, StateWaiting}, states())
	assert.Equal(t, "behind r8", e.Responses()[8].Wait, "DecodePreallocQueue is first come, first served")
	assert.Equal(t, []int{5, 7}, e.Lingering())
	assert.Equal(t, 16, e.Metrics().Prefill.Allocated, "request 7's prefill half keeps its pages")
	require.NoError(t, e.Settle(7, OutcomeTimeout))
	assertReleasedOnce(t, e)
	assert.Equal(t, StateCancelled, states()[8], "request 9 follows request 8 and is cancelled at decode.running")
	r8 := e.Responses()[7]
	assert.Equal(t, StateFinished, r8.State, "the timeout freed 16 pages: request 8 goes on")
	assert.Equal(t, []int{7}, r8.LateWriteFrom, "and request 7's transfer lands in its pages")
	assert.Zero(t, e.Metrics().Prefill.Allocated, "request 7's prefill half is done once it landed")
	require.NoError(t, e.Settle(5, OutcomeError))
	assertReleasedOnce(t, e)
	m := e.Metrics()
	assert.Zero(t, m.Decode.Allocated)
	assert.Equal(t, map[Outcome]int{OutcomeDrained: 0, OutcomeTimeout: 1, OutcomeError: 1}, m.DeferredRelease)
	r2 := e.Responses()[1]
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7, Tokens: 7}}, r2.Leaks)
	assert.Equal(t, Metrics{
		Requests: 9, Responses: 5, LeakedResponses: 2, LeakedPages: 7 + r8.LeakedPages.Len(), WrongStatus: 2,
		Finished: 3, Rejected: 1, Errored: 1, Cancelled: 4,
		Prefill:         PoolMetrics{Total: 32, Free: 32, Staged: m.Prefill.Staged, Stale: m.Prefill.Stale},
		Decode:          PoolMetrics{Total: 64, Free: 64, Staged: m.Decode.Staged, Stale: m.Decode.Stale},
		DeferredRelease: m.DeferredRelease, LateWrites: 1,
	}, m)
}
