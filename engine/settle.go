package engine

import "fmt"

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
			e.emit(r, StagePrefillTransfer, HalfPrefill, p, fmt.Sprintf(
				"The uncancelled prefill half finishes send_kv_chunk into %s of the aborted request, then acknowledges (drain-ack).", p),
				e.pool.write(p, r.id))
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
