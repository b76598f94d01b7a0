package engine

import "fmt"

// prealloc is DecodePreallocQueue: reserve the slot and send its indices to
// prefill. Too few free pages park the request in the queue; SGLang retries
// it, so it waits for a release instead of failing.
func (f *flight) prealloc() bool {
	if f.cancelled(StageDecodePrealloc) {
		return false
	}
	want := f.e.cfg.SlotPages
	if !f.placeholder() {
		want = max(want, f.pagesFor(f.tokens))
	}
	m, merged, err := f.e.pool.alloc(want, f.r.id)
	if err != nil {
		if !f.waiting {
			f.waiting = true
			f.resp.State = StateWaiting
			f.e.emit(f.r, StageDecodePrealloc, HalfDecode, nil, fmt.Sprintf(
				"%sDecodePreallocQueue cannot reserve the slot yet — %s. The request stays in the queue and is retried when pages are released.",
				mergeNote(merged), err)).Poll = PollBootstrapping
			f.resp.Step = f.e.log.Len() // "waiting" is what it shows from here on, not before
		}
		return false
	}
	resumed := ""
	if f.waiting {
		f.waiting = false
		resumed = "Retried from DecodePreallocQueue: "
	}
	f.resp.State = ""
	pages := m.pages
	f.r.slot = pages
	f.resp.Allocated = pages.Len()
	f.e.emit(f.r, StageDecodePrealloc, HalfDecode, pages, fmt.Sprintf(
		"%s%sDecodePreallocQueue reserves %s %s (%s) and sends their indices to prefill (send_metadata).%s",
		resumed, mergeNote(merged), th(pages.Len()), plural(pages.Len(), "page", "pages"), pages, f.e.staleNote(pages)), m).Poll = PollWaitingForInput
	return true
}

// mergeNote says that the reservation first ran merge_and_sort_free.
func mergeNote(merged int) string {
	if merged == 0 {
		return ""
	}
	return fmt.Sprintf("free_pages is short: merge_and_sort_free merges the %s staged %s of release_pages back in, sorted by page id. ",
		th(merged), plural(merged, "page", "pages"))
}

// retryPrealloc resumes, in queue order, every waiting request that the
// free pages can now take.
func (e *Engine) retryPrealloc() {
	queue := e.preallocQueue
	e.preallocQueue = nil
	for _, r := range queue {
		r.waiting.run(preallocStage) // parks it again if it still does not fit
	}
}

// Waiting lists the requests waiting in DecodePreallocQueue, oldest first.
func (e *Engine) Waiting() []int {
	ids := make([]int, len(e.preallocQueue))
	for i, r := range e.preallocQueue {
		ids[i] = int(r.id)
	}
	return ids
}

func (f *flight) decodeTransfer() bool {
	if f.cancelled(StageDecodeTransfer) {
		return false
	}
	if f.placeholder() && f.e.cfg.Mode.checksLength() {
		// The second part of #38704: what prefill sent must cover what
		// decode is about to commit.
		f.abortAdmitted(StageDecodeTransfer, 400, inputLengthMessage(f.r.req.PromptTokens, f.e.cfg.MaxReqInputLen()), fmt.Sprintf(
			"DecodeTransferQueue polls KVPoll.Success, then checks the transferred length before it commits: prefill sent 1 token, decode would commit %s %s. It aborts the request with its pending FINISH_ABORT(400) and reads nothing.",
			th(f.r.slot.Len()), plural(f.r.slot.Len(), "page", "pages")), "decode (aborted before commit)")
		return false
	}
	if f.failedUnseen && f.e.cfg.Mode.checksLength() {
		n := f.pagesFor(f.tokens)
		f.abortAdmitted(StageDecodeTransfer, 500, fmt.Sprintf("transferred length check: prefill sent 0 of %d tokens", f.tokens), fmt.Sprintf(
			"DecodeTransferQueue is not told of the failure, but the length check before commit (#38704's second part) sees that prefill sent nothing for the %s %s decode would commit. It aborts with 500 and reads nothing.",
			th(n), plural(n, "page", "pages")), "decode (aborted before commit)")
		return false
	}
	text := fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len covers the %s written %s.",
		th(f.written.Len()), plural(f.written.Len(), "page", "pages"))
	switch {
	case f.placeholder():
		text = fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len is the whole reservation, %s pages, not the one page prefill wrote.",
			th(f.r.slot.Len()))
	case f.failedUnseen:
		n := f.pagesFor(f.tokens)
		text = fmt.Sprintf("DecodeTransferQueue, never told of the failure, treats the transfer as done; kv_committed_len covers the prompt's %s %s, which prefill never wrote.",
			th(n), plural(n, "page", "pages"))
	}
	f.e.emit(f.r, StageDecodeTransfer, HalfDecode, nil, text).Poll = PollSuccess
	return true
}

// committed is what decode attends over: what prefill wrote, or, when it
// does not know better, what it reserved for the prompt.
func (f *flight) committed() Pages {
	switch {
	case f.placeholder():
		return f.r.slot // it attends over what it reserved, not what prefill wrote
	case f.failedUnseen:
		return f.r.slot.Head(f.pagesFor(f.tokens))
	}
	return f.written
}

func (f *flight) running() bool {
	if f.cancelled(StageDecodeRunning) {
		return false
	}
	read := f.committed()
	if f.e.cfg.CheckWriter && !f.writersMatch(read) {
		return false
	}
	f.e.readInto(&f.resp, read, f.r)
	f.resp.ReadStep = f.e.log.Len() + 1
	f.e.emit(f.r, StageDecodeRunning, HalfDecode, read, fmt.Sprintf(
		"The running batch attends over %s %s: %s.", th(read.Len()), plural(read.Len(), "page", "pages"), f.e.provenance(f.resp)))
	return true
}

// abortAdmitted ends an admitted request with FINISH_ABORT. The queue
// that holds it frees its slot — unless the door does not retire aborted
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
	n := f.r.slot.Len()
	f.resp.Unretired = true
	f.e.m.unretiredPages += n
	f.e.emit(f.r, StageRelease, HalfDecode, nil, fmt.Sprintf(
		"Nobody retires the aborted request — the simulation's illustration of a door that does not (SGLang frees an aborted request's pages): its %s %s (%s) stay held, and no later request can have them.",
		th(n), plural(n, "page", "pages"), f.r.slot))
}
