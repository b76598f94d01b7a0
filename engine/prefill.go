package engine

import "fmt"

func (f *flight) bootstrap() bool {
	if f.cancelled(StagePrefillBootstrap) {
		return false
	}
	if f.prefillRetired {
		f.e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
			"Prefill's door retired its half: no KV sender for bootstrap_room %d. Decode's KV receiver handshakes with a prefill server that will never send.", f.r.id)).Poll = PollBootstrapping
		return true
	}
	f.e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
		"Prefill creates a KV sender for bootstrap_room %d and waits for decode's page indices.", f.r.id)).Poll = PollBootstrapping
	return true
}

// forward is prefill's forward pass: it builds the KV of its prompt — the
// placeholder when it rejected the prompt — in its own pool. Too few free
// pages keep the request in prefill's waiting queue until a release.
func (f *flight) forward() bool {
	if f.cancelled(StagePrefillForward) {
		return false
	}
	if f.prefillRetired {
		return true // retired at prefill's door: no forward pass
	}
	p := f.e.prefill()
	n := f.pagesFor(f.prefillTokens)
	m, merged, err := p.alloc(n, f.r.id)
	if err != nil {
		f.wait(forwardStage, StagePrefillForward, HalfPrefill, fmt.Sprintf("%sPrefill's waiting queue cannot run the forward pass yet — %s in prefill's pool. The request waits there until pages are released.", mergeNote(merged), err))
		return false
	}
	resumed := f.resumed()
	f.r.prefillKV = m.pages
	text := fmt.Sprintf("%s%sThe prefill forward pass builds the KV of %s prompt %s in %s of prefill's own pool (%s).",
		resumed, mergeNote(merged), th(f.prefillTokens), plural(f.prefillTokens, "token", "tokens"), pagesWord(n), m.pages)
	if f.resp.PrefillRejected {
		text = fmt.Sprintf("%s%sThe prefill forward pass runs over the one placeholder token, in %s of prefill's own pool (%s).", resumed, mergeNote(merged), pagesWord(n), m.pages)
	}
	f.e.emit(f.r, StagePrefillForward, HalfPrefill, m.pages, text, m, p.write(m.pages, f.r.id, f.prefillTokens))
	return true
}

func (f *flight) transfer() bool {
	if f.cancelled(StagePrefillTransfer) {
		return false
	}
	if f.prefillRetired {
		return f.neverSent()
	}
	if f.r.req.FailTransfer && !f.e.cfg.Retires().Has(PendingErrored) {
		f.failedUnseen = true
		f.e.emit(f.r, StagePrefillTransfer, HalfPrefill, nil,
			"send_kv_chunk fails: prefill polls KVPoll.Failed and closes its KV sender, but decode is not told — the simulation's illustration of a door that does not retire an errored request (SGLang's DecodeTransferQueue does poll it). Nothing is written into decode's reservation.").Poll = PollFailed
		f.e.releasePrefill(f.r, "prefill (after KVPoll.Failed)")
		f.e.landLateWrites(f)
		return true
	}
	if f.r.req.FailTransfer {
		f.end(StateErrored, 500, "KV transfer failed (KVPoll.Failed): Internal Server Error")
		f.e.emit(f.r, StagePrefillTransfer, HalfBoth, nil,
			"send_kv_chunk fails: both halves poll KVPoll.Failed. Prefill closes its KV sender; the client gets 500.").Poll = PollFailed
		f.respondError()
		f.release("decode (after KVPoll.Failed)")
		return false
	}
	// Prefill writes what it built into the page indices decode sent; when
	// decode reserved less (it rejected the prompt), what fits.
	f.sent = min(f.prefillTokens, f.decodeTokens)
	f.written = f.r.reserved.Head(f.pagesFor(f.sent))
	text := fmt.Sprintf("send_kv_chunk(last_chunk=True) writes %s %s into %s of decode's reservation (%s): KVPoll.Success. Prefill closes its KV sender.",
		th(f.sent), plural(f.sent, "token", "tokens"), pagesWord(f.written.Len()), f.written)
	switch {
	case f.resp.PrefillRejected:
		text = fmt.Sprintf("send_kv_chunk(last_chunk=True) writes the one placeholder token into position 0 of decode's first reserved page (%s): KVPoll.Success; the rest of decode's reservation keeps whatever it held. On success prefill marks the request finished with FINISH_LENGTH(0) unconditionally; to_finish, the pending FINISH_ABORT(400), is not overwritten — it is never consulted.", f.written)
	case f.sent < f.prefillTokens:
		text += fmt.Sprintf(" Decode reserved for its placeholder only, so %s of prefill's %s tokens fit (the simulation's simplification of a transfer whose lengths disagree).", th(f.sent), th(f.prefillTokens))
	}
	m, note := f.e.wholePages(f.r, f.written, f.sent)
	f.e.emit(f.r, StagePrefillTransfer, HalfPrefill, f.written, text+note, m).Poll = PollSuccess
	f.e.releasePrefill(f.r, "prefill (its transfer done)")
	f.e.landLateWrites(f)
	return true
}

// wholePages writes r's first sent tokens into decode's pages as Mooncake
// sends them, whole pages (send_kvcache over page indices): every transfer
// — on time, drained or late — does. It returns the write and, when the
// last page's tail holds anything but r's own KV, a sentence for the log.
func (e *Engine) wholePages(r *record, pages Pages, sent int) (mutation, string) {
	tail := e.senderTail(r, sent)
	note := ""
	if tail != nil && !tail.only(r.id) {
		note = fmt.Sprintf(" The transfer copies whole pages: past position %s, decode's page %s takes what prefill's own page held there — %s.",
			th(sent%e.cfg.PageTokens-1), th(PageID(lastPage(pages))), e.describePositions(tail, sent%e.cfg.PageTokens))
	}
	return e.decode().copyPages(pages, r.id, sent, tail), note
}

// senderTail is what r's page in prefill's pool holds in the positions past
// the last token the transfer sends, when that token ends inside a page
// (nil when the last page is full, or prefill built nothing).
func (e *Engine) senderTail(r *record, sent int) positions {
	size := e.cfg.PageTokens
	if sent%size == 0 {
		return nil
	}
	src := r.prefillKV.Tail(sent / size).Head(1)
	if len(src) == 0 {
		return nil
	}
	return e.prefill().positionsOf(src[0].First)
}

// neverSent ends a request whose prefill half was retired at its own door
// (#38935) while decode preallocated: no KV comes, decode's receiver hits its
// waiting timeout (SGLANG_DISAGGREGATION_WAITING_TIMEOUT, 300 s by default)
// and polls KVPoll.Failed, and DecodeTransferQueue.pop_transferred aborts
// with 500 and frees the reservation unread (release_kv_cache, is_insert
// False). The router returns decode's answer.
func (f *flight) neverSent() bool {
	f.end(StateErrored, 500, fmt.Sprintf("Decode transfer failed for request rank=0 decode_req.req.rid='r%d' decode_req.req.bootstrap_room=%d", f.r.id, f.r.id))
	f.e.emit(f.r, StageDecodeTransfer, HalfDecode, nil, fmt.Sprintf(
		"No KV ever comes: prefill's half was retired at its door. Decode's KV receiver waits out SGLANG_DISAGGREGATION_WAITING_TIMEOUT (300 s by default) and polls KVPoll.Failed; DecodeTransferQueue aborts the request with 500 and frees its %s unread. The router returns decode's 500, not prefill's 400.",
		pagesWord(f.r.reserved.Len()))).Poll = PollFailed
	f.respondError()
	f.release("decode (after KVPoll.Failed, unread)")
	return false
}

// lateWrite is a transfer still in flight from a prefill half whose decode
// half freed its pages on a deferred-release timeout.
type lateWrite struct {
	from   *record
	pages  Pages
	tokens int
}

// landLateWrites lets the transfers still in flight land while f is being
// served: into whatever the pages are now, f's own KV included.
func (e *Engine) landLateWrites(f *flight) {
	d := e.decode()
	for _, w := range e.late {
		var into Pages
		for _, r := range w.pages {
			d.eachRun(r.First, r.First+r.Count, func(first, n int, holder, _ int32) {
				if holder == f.r.id {
					into = into.addRun(Run{first, n})
				}
			})
		}
		text := fmt.Sprintf("A late send_kv_chunk from r%d's uncancelled prefill half (bootstrap_room %d) lands in decode's %s, which decode freed on its deferred-release timeout. They hold tenant %s's KV again; nobody holds them now.",
			w.from.id, w.from.id, w.pages, e.tenants[w.from.tenant])
		if len(into) > 0 {
			text = fmt.Sprintf("A late send_kv_chunk from r%d's uncancelled prefill half (bootstrap_room %d) lands in decode's %s: decode freed them on its deferred-release timeout and handed %s to r%d (tenant %s), whose KV now holds tenant %s's.",
				w.from.id, w.from.id, w.pages, into, f.r.id, f.resp.Tenant, e.tenants[w.from.tenant])
			f.resp.LateWriteFrom = append(f.resp.LateWriteFrom, int(w.from.id))
		}
		m, note := e.wholePages(w.from, w.pages, w.tokens)
		ev := e.emit(w.from, StagePrefillTransfer, HalfPrefill, w.pages, text+note, m)
		ev.Poll = PollSuccess
		if len(into) > 0 {
			ev.Victim = int(f.r.id)
		}
		e.m.lateWrites++
		e.releasePrefill(w.from, "prefill (its late transfer done)")
	}
	e.late = nil
}

// pagesWord is "1 page", "8 pages".
func pagesWord(n int) string { return th(n) + " " + plural(n, "page", "pages") }
