package challenge

import (
	"fmt"
	"strings"

	"kvleak/engine"
)

// The goals: pure predicates over the engine after the run. Each looks
// only at what the engine recorded — responses, their provenance, the log
// — and names the request that met it, or the one that came closest (the
// challenge's Miss and Near say it in words).

// readsFlag: a 200 to tenant B carries tenant A's flag in pages A wrote.
func readsFlag(e *engine.Engine, _ Answer) result {
	for _, r := range e.Responses() {
		for _, s := range r.Body {
			if r.Tenant == "B" && r.Status == 200 && s.Leaked && s.Tenant == "A" && strings.Contains(s.Text, engine.DemoSecret) {
				return result{met: r.Request}
			}
		}
	}
	return result{}
}

// shortestLeak: a 200 carrying another tenant's KV for a prompt of the
// window's first length, the shortest prompt that reaches the leak.
func shortestLeak(e *engine.Engine, _ Answer) (res result) {
	for _, r := range e.Responses() {
		switch {
		case !r.Leaked() || r.Status != 200:
		case r.Tokens == e.Config().Window().First:
			return result{met: r.Request}
		default:
			res.near = r.Request
		}
	}
	return res
}

// readsWriter: a 200 to tenant C carries tenant B's KV.
func readsWriter(e *engine.Engine, _ Answer) (res result) {
	for _, r := range e.Responses() {
		for _, l := range r.Leaks {
			switch {
			case r.Tenant != "C" || r.Status != 200:
			case l.Tenant == "B":
				return result{met: r.Request}
			default:
				res.near = r.Request
			}
		}
	}
	return res
}

// wrongStatus: a 200 for a request whose rejection was pending.
func wrongStatus(e *engine.Engine, _ Answer) result {
	for _, r := range e.Responses() {
		if r.WrongStatus && r.Status == 200 {
			return result{met: r.Request}
		}
	}
	return result{}
}

// failedLeak: a 200 carrying another tenant's KV after a KV transfer
// failed and decode was not told.
func failedLeak(e *engine.Engine, _ Answer) (res result) {
	for _, r := range e.Responses() {
		switch {
		case !r.FailedUnseen:
		case r.Leaked() && r.Status == 200:
			return result{met: r.Request}
		default:
			res.near = r.Request
		}
	}
	return res
}

// windowClosed is the proof that no prompt leaks: decode rejected the
// shortest prompt prefill rejects (so every longer one too) and the reader
// answered that it cannot be done (doc.go). A longer probe comes close.
func windowClosed(e *engine.Engine, a Answer) (res result) {
	probe := 0
	for _, r := range e.Responses() {
		switch {
		case !r.PrefillRejected || !r.DecodeRejected:
		case r.Tokens == e.Config().LimitsOf(engine.ServerPrefill).MaxReqInputLen():
			probe = r.Request
		default:
			res.near = r.Request
		}
	}
	switch {
	case probe == 0:
	case a == Cannot:
		return result{met: probe}
	case a == Can:
		res.why = fmt.Sprintf("Not so: decode rejected request r%d, the shortest prompt prefill rejects, so it rejects every longer one too.", probe)
	default:
		res.why = fmt.Sprintf("Request r%d decides it. Now answer the question.", probe)
	}
	return res
}

// cleanRefusal: a 400 with nothing allocated on either server, for a
// prompt in the leak's window (one the vulnerable door would have leaked).
// A 400 like it for a prompt outside the window comes close.
func cleanRefusal(e *engine.Engine, _ Answer) (res result) {
	rs, log := e.Responses(), e.Log()
	touched := make([]bool, len(rs)+1) // by request: an event of it allocated, wrote, read or freed a page
	for i := range log.Len() {
		if ev := log.At(i); ev.Pages.Len() > 0 && ev.Request < len(touched) {
			touched[ev.Request] = true
		}
	}
	for _, r := range rs {
		switch {
		case r.Status != 400 || r.State != engine.StateRejected || r.Allocated > 0 || touched[r.Request]:
		case e.Config().Window().Contains(r.Tokens):
			return result{met: r.Request}
		default:
			res.near = r.Request
		}
	}
	return res
}

// checkedBothWays: the writer check stopped one read (500, nothing read)
// and let a leak through (200 with another tenant's KV). With the door and
// the mode held, the writer check is the only 500 abort (doc.go).
func checkedBothWays(e *engine.Engine, _ Answer) (res result) {
	through := 0
	for _, r := range e.Responses() {
		if !e.Config().CheckWriter {
			break
		}
		switch {
		case r.State == engine.StateAborted && r.Status == 500 && r.ReadPages.Len() == 0:
			res.near = r.Request
		case r.Leaked() && r.Status == 200:
			through = r.Request
		}
	}
	switch {
	case through > 0 && res.near > 0:
		return result{met: through}
	case through > 0:
		res.why = fmt.Sprintf("Request r%d leaked past the check. Now find a read it stops.", through)
	}
	return res
}
