package engine

import "fmt"

// cancelled ends the request if the client cancels it at this stage, and
// lets the router react according to the cancel policy.
func (f *flight) cancelled(at Stage) bool {
	if f.r.req.CancelAt != at {
		return false
	}
	e := f.e
	f.resp.CancelledAt = at
	f.end(StateAborted, 499, "client closed the request at "+string(at))
	held := len(f.r.slot) > 0
	// Prefill has finished its part once its transfer succeeded.
	prefillBusy := at != StageDecodeTransfer && at != StageDecodeRunning

	if e.cfg.Cancel == CancelBoth {
		e.emit(f.r, StageRouter, HalfRouter, nil, fmt.Sprintf(
			"The client cancels at %s. The router cancels both halves: prefill closes its KV sender for bootstrap_room %d, decode drops its receiver.", at, f.r.id))
		if held {
			f.release("decode (cancelled by the router)")
		}
		f.respondAborted()
		return true
	}

	e.emit(f.r, StageRouter, HalfRouter, nil, fmt.Sprintf(
		"The client cancels at %s. The router cancels only the decode half, which saw the abort; nobody tells prefill.", at))
	switch {
	case held && prefillBusy:
		// Cancelled before its transfer: prefill will still write the prompt.
		pending := f.r.slot.Head(f.pagesFor(f.tokens))
		f.r.linger = &linger{pendingWrite: pending}
		e.m.lingeringPages += f.r.slot.Len()
		f.resp.Lingering = true
		e.emit(f.r, StageRelease, HalfDecode, f.r.slot, fmt.Sprintf(
			"Decode defers the release of %s (deferred KV release): prefill still holds bootstrap_room %d and may write into them, so they stay held until it acknowledges.",
			f.r.slot, f.r.id))
		f.r.deferStep = len(e.events)
	case !held:
		e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
			"The prefill half keeps bootstrap_room %d open with no decode peer; its bootstrap fails (KVPoll.Failed) and it cleans up alone. No page was reserved.", f.r.id))
	default:
		f.release("decode (aborted after prefill had finished)")
	}
	f.respondAborted()
	return true
}

func (f *flight) respondAborted() {
	f.e.emit(f.r, StageResponse, HalfRouter, nil, fmt.Sprintf(
		"No response: tenant %s's client went away (logged as %d).", f.resp.Tenant, f.resp.Status))
	f.resp.Step = len(f.e.events)
}

// releaseSlot returns a request's reserved pages to the free list, exactly
// once, scrubbing them first when the config says so.
func (e *Engine) releaseSlot(r *record, who string) {
	if r.released || len(r.slot) == 0 {
		return
	}
	r.released = true
	n := r.slot.Len()
	muts := []mutation{{mutFree, r.slot, r.id}}
	scrubbed := e.pool.release(r.slot, e.cfg.ScrubOnFree)
	text := fmt.Sprintf("%s frees %s %s (%s). free() only returns the ids: the pages keep their KV and go to the front of the free list.",
		capitalize(who), th(n), plural(n, "page", "pages"), r.slot)
	if scrubbed > 0 {
		bytes := int64(scrubbed) * int64(e.cfg.PageTokens) * int64(e.cfg.KVBytesPerToken)
		e.m.scrubWrites += scrubbed
		e.m.scrubBytes += bytes
		muts = append(muts, mutation{mutScrub, r.slot, r.id})
		text = fmt.Sprintf("%s scrubs and frees %s %s (%s): %s %s, %s bytes zeroed.",
			capitalize(who), th(n), plural(n, "page", "pages"), r.slot, th(scrubbed), plural(scrubbed, "write", "writes"), Thousands(bytes))
	}
	e.emit(r, StageRelease, HalfDecode, r.slot, text, muts...)
}

// Settle ends the deferred release of a lingering request with the given
// outcome: the prefill half acknowledged (drained), never answered
// (timeout), or failed (error). An error means nothing changed.
func (e *Engine) Settle(request int, o Outcome) error {
	if request < 1 || request > len(e.reqs) || e.reqs[request-1].linger == nil {
		return &RequestError{"settle", fmt.Sprintf("request %d has no deferred release to settle", request)}
	}
	r := e.reqs[request-1]
	switch o {
	case OutcomeDrained:
		if p := r.linger.pendingWrite; len(p) > 0 {
			e.pool.write(p, r.id)
			e.emit(r, StagePrefillTransfer, HalfPrefill, p, fmt.Sprintf(
				"The uncancelled prefill half finishes send_kv_chunk into %s of the aborted request, then acknowledges (drain-ack).", p),
				mutation{mutWrite, p, r.id})
		} else {
			e.emit(r, StagePrefillTransfer, HalfPrefill, nil, "The uncancelled prefill half acknowledges (drain-ack).")
		}
	case OutcomeTimeout:
		e.emit(r, StageRelease, HalfDecode, nil,
			"No drain-ack arrives before the deadline: decode gives up waiting. A late transfer from prefill could still write into these pages after they are reused.")
	case OutcomeError:
		e.emit(r, StagePrefillTransfer, HalfPrefill, nil, "The uncancelled prefill half's transfer fails (KVPoll.Failed).")
	default:
		return &RequestError{"settle", fmt.Sprintf("outcome %q: must be drained, timeout or error", string(o))}
	}
	e.m.lingeringPages -= r.slot.Len()
	r.linger = nil
	e.m.deferred[outcomeIndex(o)]++
	e.releaseSlot(r, fmt.Sprintf("decode (deferred release: %s)", o))
	e.responses[r.resp].Lingering = false
	return nil
}

// Lingering lists the requests whose pages wait for a deferred release.
func (e *Engine) Lingering() []int {
	var ids []int
	for _, r := range e.reqs {
		if r.linger != nil {
			ids = append(ids, int(r.id))
		}
	}
	return ids
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
