package engine

import "fmt"

func (f *flight) bootstrap() bool {
	if f.cancelled(StagePrefillBootstrap) {
		return false
	}
	f.e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
		"Prefill creates a KV sender for bootstrap_room %d and waits for decode's page indices.", f.r.id)).Poll = PollBootstrapping
	return true
}

func (f *flight) forward() bool {
	if f.cancelled(StagePrefillForward) {
		return false
	}
	text := fmt.Sprintf("The prefill forward pass builds the KV of %s prompt tokens.", th(f.tokens))
	if f.placeholder() {
		text = "The prefill forward pass runs over the one placeholder token."
	}
	f.e.emit(f.r, StagePrefillForward, HalfPrefill, nil, text)
	return true
}

func (f *flight) transfer() bool {
	if f.cancelled(StagePrefillTransfer) {
		return false
	}
	if f.r.req.FailTransfer && !f.e.cfg.Retires().Has(PendingErrored) {
		f.failedUnseen = true
		f.e.emit(f.r, StagePrefillTransfer, HalfPrefill, nil,
			"send_kv_chunk fails: prefill polls KVPoll.Failed and closes its KV sender, but decode is not told — the simulation's illustration of a door that does not retire an errored request (SGLang's DecodeTransferQueue does poll it). Nothing is written into decode's reservation.").Poll = PollFailed
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
	f.written = f.r.slot.Head(f.pagesFor(f.tokens))
	text := fmt.Sprintf("send_kv_chunk(last_chunk=True) writes %s %s (%s) into decode's reservation: KVPoll.Success. Prefill closes its KV sender.",
		th(f.written.Len()), plural(f.written.Len(), "page", "pages"), f.written)
	if f.placeholder() {
		text += " On success prefill marks the request finished with FINISH_LENGTH(0) unconditionally; to_finish, the pending FINISH_ABORT(400), is not overwritten — it is never consulted."
	}
	f.e.emit(f.r, StagePrefillTransfer, HalfPrefill, f.written, text, f.e.pool.write(f.written, f.r.id)).Poll = PollSuccess
	f.e.landLateWrites(f)
	return true
}

// lateWrite is a transfer still in flight from a prefill half whose decode
// half freed its pages on a deferred-release timeout.
type lateWrite struct {
	from  *record
	pages Pages
}

// landLateWrites lets the transfers still in flight land while f is being
// served: into whatever the pages are now, f's own KV included.
func (e *Engine) landLateWrites(f *flight) {
	for _, w := range e.late {
		var into Pages
		w.pages.Each(func(id int) bool {
			if e.pool.holder[id] == f.r.id {
				into = into.add(id)
			}
			return true
		})
		text := fmt.Sprintf("A late send_kv_chunk from r%d's uncancelled prefill half (bootstrap_room %d) lands in %s, which decode freed on its deferred-release timeout. They hold tenant %s's KV again; nobody holds them now.",
			w.from.id, w.from.id, w.pages, e.tenants[w.from.tenant])
		if len(into) > 0 {
			text = fmt.Sprintf("A late send_kv_chunk from r%d's uncancelled prefill half (bootstrap_room %d) lands in %s: decode freed them on its deferred-release timeout and handed %s to r%d (tenant %s), whose KV now holds tenant %s's.",
				w.from.id, w.from.id, w.pages, into, f.r.id, f.resp.Tenant, e.tenants[w.from.tenant])
			f.resp.LateWriteFrom = append(f.resp.LateWriteFrom, int(w.from.id))
		}
		ev := e.emit(w.from, StagePrefillTransfer, HalfPrefill, w.pages, text, e.pool.write(w.pages, w.from.id))
		ev.Poll = PollSuccess
		if len(into) > 0 {
			ev.Victim = int(f.r.id)
		}
		e.m.lateWrites++
	}
	e.late = nil
}
