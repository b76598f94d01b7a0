package challenge

import (
	"strings"

	"kvleak/engine"
)

// The goals: pure predicates over the engine after the run. Each looks
// only at what the engine recorded — responses, their provenance, the log.

// readsFlag: a 200 to reader carries holder's flag in pages holder wrote.
func readsFlag(reader, holder, flag string) func(*engine.Engine, Answer) result {
	return func(e *engine.Engine, _ Answer) result {
		for _, r := range e.Responses() {
			if r.Tenant != reader || r.Status != 200 {
				continue
			}
			for _, s := range r.Body {
				if s.Leaked && s.Tenant == holder && strings.Contains(s.Text, flag) {
					return met(r.Request)
				}
			}
		}
		return missing("No response to tenant %s carries tenant %s's flag with HTTP 200 yet.", reader, holder)
	}
}

// shortestLeak: a 200 carrying another tenant's KV for a prompt of the
// window's first length, the shortest prompt that reaches the leak.
func shortestLeak(e *engine.Engine, _ Answer) result {
	first, longer := e.Config().Window().First, 0
	for _, r := range e.Responses() {
		if !r.Leaked() || r.Status != 200 {
			continue
		}
		if r.Tokens == first {
			return met(r.Request)
		}
		longer = r.Request
	}
	if longer > 0 {
		return missing("Request r%d leaked, but a shorter prompt leaks too.", longer)
	}
	return missing("No response has carried another tenant's KV with HTTP 200 yet.")
}

// readsWriter: a 200 to reader carries writer's KV.
func readsWriter(reader, writer string) func(*engine.Engine, Answer) result {
	return func(e *engine.Engine, _ Answer) result {
		other := 0
		for _, r := range e.Responses() {
			if r.Tenant != reader || r.Status != 200 {
				continue
			}
			for _, l := range r.Leaks {
				if l.Tenant == writer {
					return met(r.Request)
				}
				other = r.Request
			}
		}
		if other > 0 {
			return missing("Request r%d read another tenant's KV, but not tenant %s's: whose pages were written last?", other, writer)
		}
		return missing("No response to tenant %s carries tenant %s's KV with HTTP 200 yet.", reader, writer)
	}
}

// wrongStatus: a 200 for a request whose rejection was pending.
func wrongStatus(e *engine.Engine, _ Answer) result {
	for _, r := range e.Responses() {
		if r.WrongStatus && r.Status == 200 {
			return met(r.Request)
		}
	}
	return missing("No rejected request has been answered with HTTP 200 yet.")
}

// failedLeak: a 200 carrying another tenant's KV after a KV transfer
// failed and decode was not told.
func failedLeak(e *engine.Engine, _ Answer) result {
	unseen := 0
	for _, r := range e.Responses() {
		if !r.FailedUnseen {
			continue
		}
		if r.Leaked() && r.Status == 200 {
			return met(r.Request)
		}
		unseen = r.Request
	}
	if unseen > 0 {
		return missing("Request r%d's transfer failed and decode went on, but its pages held no other tenant's KV.", unseen)
	}
	return missing("No request has read another tenant's KV through a failed transfer yet.")
}

// windowClosed is the proof that no prompt leaks: decode rejected the
// shortest prompt prefill rejects (so every longer one too), nothing
// leaked, and the reader answered that it cannot be done (doc.go).
func windowClosed(e *engine.Engine, a Answer) result {
	limit := e.Config().LimitsOf(engine.ServerPrefill).MaxReqInputLen()
	probe, longer := 0, 0
	for _, r := range e.Responses() {
		switch {
		case r.Leaked():
			return missing("Request r%d read another tenant's KV: on these settings it can leak.", r.Request)
		case r.PrefillRejected && !r.DecodeRejected && r.Path == engine.PathPlaceholder:
			return missing("Decode admitted request r%d's prompt, which prefill rejected: the window is open on these settings.", r.Request)
		case r.PrefillRejected && r.DecodeRejected && r.Tokens == limit:
			probe = r.Request
		case r.PrefillRejected && r.DecodeRejected:
			longer = r.Request
		}
	}
	switch {
	case probe == 0 && longer > 0:
		return missing("Both servers rejected request r%d, but a shorter prompt that prefill rejects might still pass decode's intake: probe the shortest.", longer)
	case probe == 0:
		return missing("The run holds no experiment that decides it yet: send a prompt that prefill rejects and see what decode does with it.")
	case a == NoAnswer:
		return missing("Request r%d decides it. Now answer the question.", probe)
	case a == Can:
		return missing("Not so: decode rejected request r%d, the shortest prompt prefill rejects, so it rejects every longer one too.", probe)
	}
	return met(probe)
}

// cleanRefusal: a 400 with nothing allocated on either server, for a
// prompt in the leak's window (one the vulnerable door would have leaked).
func cleanRefusal(e *engine.Engine, _ Answer) result {
	w, outside := e.Config().Window(), 0
	for _, r := range e.Responses() {
		if r.Status != 400 || r.State != engine.StateRejected || r.Allocated > 0 || touchedPages(e, r.Request) {
			continue
		}
		if w.Contains(r.Tokens) {
			return met(r.Request)
		}
		outside = r.Request
	}
	if outside > 0 {
		return missing("Request r%d got its 400 with nothing allocated, but its prompt is outside the leak's window: the vulnerable door would not have leaked it either.", outside)
	}
	return missing("No prompt in the leak's window has been refused with nothing allocated yet.")
}

// touchedPages reports whether any event of request id allocated, wrote,
// read or freed a page on either server.
func touchedPages(e *engine.Engine, id int) bool {
	log := e.Log()
	for i := range log.Len() {
		if ev := log.At(i); ev.Request == id && ev.Pages.Len() > 0 {
			return true
		}
	}
	return false
}

// checkedBothWays: the writer check stopped one read (500, nothing read)
// and let a leak through (200 with another tenant's KV). With the door
// and the mode held, the writer check is the only 500 abort (doc.go).
func checkedBothWays(e *engine.Engine, _ Answer) result {
	stopped, through := 0, 0
	for _, r := range e.Responses() {
		switch {
		case r.State == engine.StateAborted && r.Status == 500 && r.ReadPages.Len() == 0 && stopped == 0:
			stopped = r.Request
		case r.Leaked() && r.Status == 200 && through == 0:
			through = r.Request
		}
	}
	switch {
	case !e.Config().CheckWriter:
		return missing("The writer check is off.")
	case stopped > 0 && through > 0:
		return met(through)
	case stopped > 0:
		return missing("The check stopped request r%d. Now find a leak it lets through.", stopped)
	case through > 0:
		return missing("Request r%d leaked past the check. Now find a read it stops.", through)
	}
	return missing("The check has stopped nothing and nothing has leaked past it yet.")
}

// lateLeak: a 200 carrying another tenant's KV that a late transfer wrote
// into the response's own pages.
func lateLeak(e *engine.Engine, _ Answer) result {
	for _, r := range e.Responses() {
		if r.Leaked() && r.Status == 200 && len(r.LateWriteFrom) > 0 {
			return met(r.Request)
		}
	}
	return missing("No response has carried a late write yet.")
}
