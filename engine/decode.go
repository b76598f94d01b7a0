package engine

import (
	"fmt"
	"sort"
)

// prealloc is DecodePreallocQueue.pop_preallocated and _pre_alloc
// (disaggregation/decode.py). The queue is first come, first served: a
// request behind one that waits waits too (break), and the head is
// preallocated only when its budget fits (Budget). _pre_alloc then
// reserves fill_len = len(origin_input_ids) tokens — the prompt as
// decode's own intake saw it — sets kv_committed_len to it and sends the
// pages' indices to prefill.
func (f *flight) prealloc() bool {
	if f.cancelled(StageDecodePrealloc) {
		return false
	}
	if ahead := f.e.preallocAhead(f.r); ahead != nil {
		f.resp.Wait = fmt.Sprintf("behind r%d", ahead.id)
		f.wait(preallocStage, StageDecodePrealloc, HalfDecode, fmt.Sprintf(
			"DecodePreallocQueue is first come, first served: r%d ahead of this request still waits, so pop_preallocated stops there (break) and this one waits behind it.", ahead.id))
		return false
	}
	check := f.e.budget().Check(f.decodeTokens, f.v.MaxNew, f.e.cfg.ReservedDecodeTokens, f.e.cfg.PageTokens)
	if !check.Fits() {
		f.resp.Wait = check.String()
		f.wait(preallocStage, StageDecodePrealloc, HalfDecode, fmt.Sprintf(
			"pop_preallocated does not preallocate it: %s. It needs max(fill_len + num_reserved_decode_tokens, fill_len + min(max_new_tokens, %s)) within _allocatable_token_budgets; the queue stops at it (break), and it waits until releases make room%s.",
			check, th(ClipMaxNewTokens), f.e.neverNote(check)))
		return false
	}
	f.resp.Wait = ""
	want := f.pagesFor(f.decodeTokens)
	d := f.e.decode()
	// For page size > 1 decode's prealloc goes through alloc_extend
	// (alloc_for_decode_prealloc, disaggregation/decode.py).
	early := d.free.mergeForExtend(f.decodeTokens, f.e.cfg.PageTokens)
	m, merged, err := d.alloc(want, f.r.id)
	merged += early
	if err != nil {
		// The budget counts whole free pages, so this cannot happen; in
		// SGLang it would be an assert in _pre_alloc, not a wait.
		f.wait(preallocStage, StageDecodePrealloc, HalfDecode, fmt.Sprintf(
			"%s_pre_alloc cannot reserve the pages — %s (the simulation waits; in SGLang this is an assert).", mergeNote(merged), err))
		return false
	}
	resumed := f.resumed()
	pages := m.pages
	f.r.reserved = pages
	f.resp.Allocated = pages.Len()
	f.resp.Reserved = f.decodeTokens
	what := "the prompt as decode's intake admitted it"
	if f.resp.DecodeRejected {
		what = "decode's own placeholder, as its intake rejected the prompt"
	}
	ev := f.e.emit(f.r, StageDecodePrealloc, HalfDecode, pages, fmt.Sprintf(
		"%s%spop_preallocated: %s. DecodePreallocQueue reserves %s (%s) for fill_len = %s %s — %s — sets kv_committed_len = %s and sends the page indices to prefill (send_metadata).%s",
		resumed, mergeNote(merged), check, pagesWord(pages.Len()), pages, th(f.decodeTokens), plural(f.decodeTokens, "token", "tokens"), what, th(f.decodeTokens), f.e.staleNote(pages)), m)
	ev.Poll = PollWaitingForInput
	f.e.noteBudget(ev.Step, check.String())
	return true
}

// preallocAhead is the oldest request other than r still waiting in
// DecodePreallocQueue, if any.
func (e *Engine) preallocAhead(r *record) *record {
	for _, q := range e.queue {
		if q != r && q.waiting != nil && q.waiting.resumeAt == preallocStage {
			return q
		}
	}
	return nil
}

// budget is decode's pool as pop_preallocated weighs it. Requests run to
// their response one at a time here, so the running batch is empty; the
// active requests are those that hold decode's pages while they wait for
// prefill's forward pass (the transfer queue).
func (e *Engine) budget() Budget {
	active := 0
	for _, q := range e.queue {
		if q.waiting != nil && q.waiting.resumeAt == forwardStage {
			active++
		}
	}
	return Budget{Available: e.decode().freeCount() * e.cfg.PageTokens, Active: active}
}

// neverNote says when the request cannot fit even in an empty pool.
func (e *Engine) neverNote(c BudgetCheck) string {
	empty := e.cfg.emptyBudget().Check(c.Fill, c.MaxNew, c.Reserve, c.Page)
	if empty.Fits() {
		return ""
	}
	return fmt.Sprintf(" — which never comes: even decode's whole pool, %s tokens, is short (%s), so it waits for good and holds every request behind it", th(empty.Available), empty)
}

// emptyBudget is decode's budget with nothing held.
func (c Config) emptyBudget() Budget {
	return Budget{Available: c.PagesOf(ServerDecode) * c.PageTokens}
}

// neverPrealloc says why a request waiting in DecodePreallocQueue can never
// be preallocated, even in decode's empty pool ("" when it could be).
func (c Config) neverPrealloc(r *Response) string {
	v := c.Admit(r.Tokens, 0)
	check := c.emptyBudget().Check(v.Fill, r.MaxNew, c.ReservedDecodeTokens, c.PageTokens)
	if check.Fits() {
		return ""
	}
	return check.String()
}

// wait parks the flight until pages are released, to resume at stage
// index resumeAt; it logs why once.
func (f *flight) wait(resumeAt int, at Stage, half Half, text string) {
	if f.waiting {
		return
	}
	f.waiting, f.resumeAt = true, resumeAt
	f.resp.State = StateWaiting
	ev := f.e.emit(f.r, at, half, nil, text)
	ev.Poll = PollBootstrapping
	if at == StageDecodePrealloc && f.resp.Wait != "" {
		f.e.noteBudget(ev.Step, f.resp.Wait)
	}
	f.resp.Step = f.e.log.Len() // "waiting" is what it shows from here on, not before
}

// resumed ends a wait, if any, and says so at the start of a log line.
func (f *flight) resumed() string {
	f.resp.State = ""
	if !f.waiting {
		return ""
	}
	f.waiting = false
	return "Retried from the queue: "
}

// mergeNote says that the reservation first ran merge_and_sort_free.
func mergeNote(merged int) string {
	if merged == 0 {
		return ""
	}
	return fmt.Sprintf("free_pages is short: merge_and_sort_free merges the %s staged %s of release_pages back in, sorted by page id. ",
		th(merged), plural(merged, "page", "pages"))
}

// retryWaiting resumes, in queue order, every waiting request that the
// free pages can now take. A request that waited for prefill's pool held
// its decode reservation, and frees it when it finishes, so a request
// ahead of it in the queue may fit now: it goes round again until a pass
// resumes nobody.
func (e *Engine) retryWaiting() {
	for n := -1; len(e.queue) > 0 && len(e.queue) != n; {
		n = len(e.queue)
		queue := e.queue
		e.queue = nil
		for _, r := range queue {
			f := r.waiting
			f.run(f.resumeAt) // parks it again if it still does not fit
		}
	}
}

// Waiting lists the requests waiting for pages, oldest first.
func (e *Engine) Waiting() []int {
	ids := make([]int, len(e.queue))
	for i, r := range e.queue {
		ids[i] = int(r.id)
	}
	return ids
}

func (f *flight) decodeTransfer() bool {
	if f.cancelled(StageDecodeTransfer) {
		return false
	}
	if f.resp.PrefillRejected && f.sent < f.decodeTokens && f.e.cfg.Mode.checksLength() {
		// The length check the article attributes to #38704 (not seen
		// merged upstream): what prefill sent must cover what decode is
		// about to commit.
		_, reason := f.rejection()
		f.abortAdmitted(StageDecodeTransfer, 400, reason, fmt.Sprintf(
			"DecodeTransferQueue polls KVPoll.Success, then checks the transferred length before it commits: prefill sent %s %s, decode would commit %s. It aborts the request with its pending FINISH_ABORT(400) and reads nothing.",
			th(f.sent), plural(f.sent, "token", "tokens"), th(f.decodeTokens)), "decode (aborted before commit)")
		return false
	}
	if f.failedUnseen && f.e.cfg.Mode.checksLength() {
		f.abortAdmitted(StageDecodeTransfer, 500, fmt.Sprintf("transferred length check: prefill sent 0 of %d tokens", f.decodeTokens), fmt.Sprintf(
			"DecodeTransferQueue is not told of the failure, but the length check before commit (the article's second part of its fix) sees that prefill sent nothing for the %s %s decode would commit. It aborts with 500 and reads nothing.",
			th(f.decodeTokens), plural(f.decodeTokens, "token", "tokens")), "decode (aborted before commit)")
		return false
	}
	text := fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len = %s, the %s prefill wrote.",
		th(f.decodeTokens), plural(f.decodeTokens, "token", "tokens"))
	switch {
	case f.failedUnseen:
		text = fmt.Sprintf("DecodeTransferQueue, never told of the failure, treats the transfer as done; kv_committed_len = %s, set at prealloc, though prefill wrote none of them.",
			th(f.decodeTokens))
	case f.sent < f.decodeTokens:
		text = fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len is fill_len = %s, set at prealloc, not the %s prefill wrote.",
			th(f.decodeTokens), th(f.sent))
	}
	f.e.emit(f.r, StageDecodeTransfer, HalfDecode, nil, text).Poll = PollSuccess
	return true
}

// running is the running batch: it attends over kv_committed_len
// positions of the reservation, whoever wrote them.
func (f *flight) running() bool {
	if f.cancelled(StageDecodeRunning) {
		return false
	}
	if f.resp.DecodeRejected || f.v.MaxNew <= 1 {
		f.prebuiltOnly()
		return true
	}
	read := f.r.reserved.Head(f.pagesFor(f.decodeTokens))
	if f.e.cfg.CheckWriter && !f.writersMatch(read) {
		return false
	}
	f.e.readInto(&f.resp, read, f.decodeTokens, f.r)
	f.resp.Sent = f.sent
	f.resp.ReadStep = f.e.log.Len() + 1
	f.e.emit(f.r, StageDecodeRunning, HalfDecode, read, fmt.Sprintf(
		"The running batch attends over kv_committed_len = %s %s in %s: %s.", th(f.decodeTokens), plural(f.decodeTokens, "position", "positions"),
		pagesWord(read.Len()), f.e.provenance(f.resp)))
	return true
}

// prebuiltOnly is a request decode finishes in its prebuilt batch
// (process_batch_result_prebuilt, check_finished) before any decode
// forward pass: its rejection was pending on decode, or
// init_req_max_new_tokens left it no token to generate. Nothing is
// attended.
func (f *flight) prebuiltOnly() {
	why := fmt.Sprintf("init_req_max_new_tokens left max_new_tokens %s (the prompt in whole pages plus one page leaves no room in decode's %s-token pool), so check_finished ends it with FINISH_LENGTH", th(f.v.MaxNew), th(f.e.cfg.LimitsOf(ServerDecode).PoolTokens))
	if f.v.MaxNew == f.r.req.maxNewTokens() {
		// Not clamped: the client asked for at most the one token prefill
		// already generated.
		why = fmt.Sprintf("max_new_tokens is %s, which the first token, generated by prefill, already reaches, so check_finished ends it with FINISH_LENGTH", th(f.v.MaxNew))
	}
	if f.resp.DecodeRejected {
		why = "its to_finish, FINISH_ABORT(400), is pending on decode, so check_finished ends it"
	}
	f.resp.Sent = f.sent // prefill did transfer; decode reads none of it
	f.e.emit(f.r, StageDecodeRunning, HalfDecode, nil, fmt.Sprintf(
		"Decode's prebuilt batch takes the transferred request: %s before any decode forward pass. Nothing is attended; kv_committed_len = %s is never read.",
		why, th(f.decodeTokens)))
}

// abortAdmitted ends an admitted request with FINISH_ABORT. The queue
// that holds it frees its pages — unless the door does not retire aborted
// requests, and then nobody does.
func (f *flight) abortAdmitted(at Stage, status int, reason, text, who string) {
	f.end(StateAborted, status, reason)
	ev := f.e.emit(f.r, at, HalfDecode, nil, text)
	if at == StageDecodeTransfer {
		ev.Poll = PollSuccess
	}
	f.respondError()
	if f.e.cfg.Retires().Has(PendingAborted) {
		f.release(who)
		return
	}
	n := f.r.reserved.Len()
	f.resp.Unretired = true
	f.e.m.unretiredPages += n
	f.e.emit(f.r, StageRelease, HalfDecode, nil, fmt.Sprintf(
		"Nobody retires the aborted request — the simulation's illustration of a door that does not (SGLang frees an aborted request's pages): its %s (%s) stay held in decode's pool, and no later request can have them.",
		pagesWord(n), f.r.reserved))
}

// stepText is a text an event of the log carries beside its line.
type stepText struct {
	step int
	text string
}

// noteBudget keeps pop_preallocated's check of the decode.prealloc event
// at step, in numbers (BudgetCheck.String), or the request it waits
// behind ("behind r1"). A table beside the log, not a field of every
// event: one or two a request.
func (e *Engine) noteBudget(step int, text string) {
	e.budgets = append(e.budgets, stepText{step, e.share(text)})
}

// BudgetAt is pop_preallocated's check that the decode.prealloc event at
// step showed ("125 + 32 reserved ≤ 160 free", or "behind r1" while the
// request waited behind another); "" for any other event.
func (e *Engine) BudgetAt(step int) string {
	i := sort.Search(len(e.budgets), func(i int) bool { return e.budgets[i].step >= step })
	if i == len(e.budgets) || e.budgets[i].step != step {
		return ""
	}
	return e.budgets[i].text
}
