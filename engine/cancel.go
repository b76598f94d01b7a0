package engine

import "fmt"

// cancelled ends the request if the client cancels it at this stage, and
// lets the router react according to the cancel policy.
func (f *flight) cancelled(at Stage) bool {
	if f.r.req.CancelAt != at || f.ghost {
		return false
	}
	e := f.e
	if !e.cfg.Retires().Has(PendingCancelled) {
		f.ghost = true
		f.resp.CancelledAt = at
		e.emit(f.r, StageRouter, HalfRouter, nil, fmt.Sprintf(
			"The client cancels at %s, but nothing retires a cancelled request — the simulation's illustration (SGLang's abort_request stops it in whichever queue holds it): no abort reaches either half, and the request runs on for nobody.", at))
		return false
	}
	f.resp.CancelledAt = at
	f.end(StateCancelled, 499, "client closed the request at "+string(at))
	held := len(f.r.reserved) > 0
	// Prefill has finished its part once its transfer succeeded.
	prefillBusy := at != StageDecodeTransfer && at != StageDecodeRunning

	if e.cfg.Cancel == CancelBoth {
		e.emit(f.r, StageRouter, HalfRouter, nil, fmt.Sprintf(
			"The client cancels at %s. The router cancels both halves: prefill closes its KV sender for bootstrap_room %d, decode drops its receiver.", at, f.r.id))
		if held {
			f.release("decode (cancelled by the router)")
		}
		f.respondCancelled()
		return true
	}

	e.emit(f.r, StageRouter, HalfRouter, nil, fmt.Sprintf(
		"The client cancels at %s. The router cancels only the decode half, which saw the abort; it does not cancel the prefill half.", at))
	switch {
	case held && prefillBusy:
		// Cancelled before its transfer: prefill will still write the prompt.
		sent := min(f.prefillTokens, f.decodeTokens)
		pending := f.r.reserved.Head(f.pagesFor(sent))
		f.r.linger = &linger{pendingWrite: pending, pendingTokens: sent}
		e.m.lingeringPages += f.r.reserved.Len()
		f.resp.Lingering = true
		e.emit(f.r, StageRelease, HalfDecode, f.r.reserved, fmt.Sprintf(
			"Decode aborts its half and defers the release of %s (deferred KV release): it sends ABORT to prefill for bootstrap_room %d and holds the pages until prefill answers ABORT_ACK, so that a transfer still in flight cannot land in pages handed to another request.",
			f.r.reserved, f.r.id))
		f.r.deferStep = e.log.Len()
	case !held:
		e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
			"The prefill half keeps bootstrap_room %d open with no decode peer; its bootstrap fails (KVPoll.Failed) and it cleans up alone. No page was reserved.", f.r.id)).Poll = PollFailed
		e.releasePrefill(f.r, "prefill (it cleans up alone)")
	default:
		f.release("decode (cancelled after prefill had finished)")
	}
	f.respondCancelled()
	return true
}

func (f *flight) respondCancelled() {
	f.e.emit(f.r, StageResponse, HalfRouter, nil, fmt.Sprintf(
		"No response: tenant %s's client went away (logged as %d, the simulation's code for a closed request).", f.resp.Tenant, f.resp.Status))
	f.resp.Step = f.e.log.Len()
}

// respondGhost ends a request whose client left while nothing retired it:
// all its work was done for nobody.
func (f *flight) respondGhost() {
	f.end(StateCancelled, 499, "client closed the request at "+string(f.resp.CancelledAt))
	f.e.m.ghostPages += f.resp.Allocated
	f.e.emit(f.r, StageResponse, HalfRouter, nil, fmt.Sprintf(
		"No response: tenant %s's client went away at %s, yet the engine ran the whole request for nobody — %s %s reserved, %s written, %s read (logged as %d).",
		f.resp.Tenant, f.resp.CancelledAt, th(f.resp.Allocated), plural(f.resp.Allocated, "page", "pages"), th(f.written.Len()), th(f.resp.ReadPages.Len()), f.resp.Status))
	f.resp.Step = f.e.log.Len()
}
