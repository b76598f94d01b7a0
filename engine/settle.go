package engine

import "fmt"

// Settle ends the deferred release of a lingering request with the given
// outcome, as counted by sglang:decode_deferred_kv_release_total{outcome}:
// prefill answered ABORT_ACK after draining (drained), never answered
// (timeout), or its transfer failed (error). After a timeout the transfer
// prefill still had in flight lands later, in whatever the pages have
// become. Requests waiting in DecodePreallocQueue are retried once the
// pages are free. An error means nothing changed.
func (e *Engine) Settle(request int, o Outcome) error {
	if request < 1 || request > len(e.reqs) || e.reqs[request-1].linger == nil {
		return &RequestError{"settle", fmt.Sprintf("request %d has no deferred release to settle", request)}
	}
	r := e.reqs[request-1]
	pending := r.linger.pendingWrite
	switch o {
	case OutcomeDrained:
		if len(pending) > 0 {
			m, note := e.wholePages(r, pending, r.linger.pendingTokens)
			e.emit(r, StagePrefillTransfer, HalfPrefill, pending, fmt.Sprintf(
				"The prefill half finishes the send_kv_chunk already in flight into decode's %s of the cancelled request, then answers ABORT_ACK: drained.%s", pending, note), m).Poll = PollSuccess
		} else {
			e.emit(r, StagePrefillTransfer, HalfPrefill, nil, "The prefill half had nothing in flight and answers ABORT_ACK: drained.")
		}
	case OutcomeTimeout:
		text := "No ABORT_ACK arrives before the deadline: decode stops waiting (timeout) and frees the pages anyway."
		if len(pending) > 0 {
			text += fmt.Sprintf(" Prefill's transfer into %s is still in flight and will land later.", pending)
			e.late = append(e.late, lateWrite{from: r, pages: pending, tokens: r.linger.pendingTokens})
		}
		e.emit(r, StageRelease, HalfDecode, nil, text).Poll = PollTransferring
	case OutcomeError:
		e.emit(r, StagePrefillTransfer, HalfPrefill, nil, "The prefill half's transfer fails (KVPoll.Failed): nothing more will be written.").Poll = PollFailed
	default:
		return &RequestError{"settle", fmt.Sprintf("outcome %q: must be drained, timeout or error", string(o))}
	}
	e.m.lingeringPages -= r.reserved.Len()
	r.linger = nil
	e.m.deferred[outcomeIndex(o)]++
	if o != OutcomeTimeout || len(pending) == 0 {
		e.releasePrefill(r, "prefill (its half ended)") // after a timeout, when its late write lands
	}
	e.releaseReserved(r, fmt.Sprintf("decode (deferred release: %s)", o))
	e.response(r.resp).Lingering = false
	e.retryWaiting()
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
