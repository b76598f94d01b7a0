package engine

import (
	"fmt"
	"strings"
)

// PendingState is a terminal state a request can reach while it still
// moves through the queues: set, but not yet finished(). The admission door
// and the queues behind it either retire a request in that state or let it
// walk on.
type PendingState string

const (
	// PendingRejected is intake's FINISH_ABORT(400) in to_finish: the gap
	// the incident ran through (Cloudflare's patch retires it at a joint
	// door; SGLang's merged #38935 at each server's own door).
	PendingRejected PendingState = "rejected"
	// PendingErrored is a KV transfer that polled KVPoll.Failed. SGLang's
	// DecodeTransferQueue aborts it with 500 (prepare_abort).
	PendingErrored PendingState = "errored"
	// PendingAborted is a FINISH_ABORT set after admission (here: the
	// length check). SGLang's queues free the aborted request's pages.
	PendingAborted PendingState = "aborted"
	// PendingCancelled is a client that went away. SGLang aborts the
	// request (abort_request) in whichever queue holds it.
	PendingCancelled PendingState = "cancelled"
)

// PendingStates lists the states a door can retire, in the order a chooser
// shows them.
var PendingStates = []PendingState{PendingRejected, PendingErrored, PendingAborted, PendingCancelled}

// RetireSet is the set of pending states the door retires.
type RetireSet uint8

// RetireAll and RetireNone are the fixed door and the article's vulnerable
// door, which checks only finished().
const (
	RetireNone RetireSet = 0
	RetireAll  RetireSet = 1<<4 - 1 // one bit per PendingStates entry
)

func (s RetireSet) bit(p PendingState) RetireSet {
	for i, q := range PendingStates {
		if q == p {
			return 1 << i
		}
	}
	return 0
}

// Has reports whether the door retires p.
func (s RetireSet) Has(p PendingState) bool { b := s.bit(p); return b != 0 && s&b != 0 }

// With is s with p retired or not.
func (s RetireSet) With(p PendingState, on bool) RetireSet {
	if on {
		return s | s.bit(p)
	}
	return s &^ s.bit(p)
}

// String is the set as the Door field and the link write it: "none",
// "all", or the states joined by dots ("errored.cancelled").
func (s RetireSet) String() string {
	switch s & RetireAll {
	case RetireNone:
		return "none"
	case RetireAll:
		return "all"
	}
	var parts []string
	for _, p := range PendingStates {
		if s.Has(p) {
			parts = append(parts, string(p))
		}
	}
	return strings.Join(parts, ".")
}

// DoorFromMode is Config.Door's value that lets the admission mode decide.
const DoorFromMode = ""

// ParseRetireSet reads a Door value other than DoorFromMode.
func ParseRetireSet(v string) (RetireSet, error) {
	switch v {
	case "none":
		return RetireNone, nil
	case "all":
		return RetireAll, nil
	}
	var s RetireSet
	for _, part := range strings.Split(v, ".") {
		b := s.bit(PendingState(part))
		if b == 0 || s&b != 0 {
			return 0, fmt.Errorf("%q is not a set of rejected, errored, aborted and cancelled", v)
		}
		s |= b
	}
	return s, nil
}

// Retires is the set the door retires: Config.Door, or, when that is
// DoorFromMode, what the mode does. Before the door fixes SGLang already handled a
// failed transfer, an abort and a cancel; only the pending rejection got
// through, so the vulnerable and length-check modes retire all but that.
// Old links, which have no Door, keep their meaning.
func (c Config) Retires() RetireSet {
	if c.Door != DoorFromMode {
		s, _ := ParseRetireSet(c.Door) // Validate has checked it
		return s
	}
	if c.Mode.retires() {
		return RetireAll
	}
	return RetireAll.With(PendingRejected, false)
}

// PendingInfo describes a pending state for the door's fieldset: what the
// door does when it retires it, what walks through when it does not, and
// which of that is SGLang's and which the simulation's illustration.
type PendingInfo struct {
	State     PendingState `json:"state"`
	Label     string       `json:"label"`
	Retired   string       `json:"retired"`
	Unchecked string       `json:"unchecked"`
	// Preset is the scenario that shows the state walking through.
	Preset string `json:"preset"`
}

// PendingInfos lists PendingStates with their descriptions. Each call
// returns a fresh slice.
func PendingInfos() []PendingInfo {
	return []PendingInfo{
		{PendingRejected, "rejected (pending FINISH_ABORT from intake)",
			"Cloudflare's patch (the article): retired at the door with its 400, before any page is allocated. SGLang's merged #38935 retires it per server.",
			"SGLang before the door fixes, the incident: the one-token placeholder walks through, decode attends over its whole reserved slot — another tenant's stale pages — and answers 200.",
			"demo"},
		{PendingErrored, "errored (KVPoll.Failed)",
			"SGLang: DecodeTransferQueue polls KVPoll.Failed and aborts with 500 (prepare_abort); the pages are freed unread.",
			"The simulation's illustration: decode is not told, commits the prompt's length and attends over reserved pages prefill never wrote — another tenant's stale KV, with HTTP 200.",
			"door-errored"},
		{PendingAborted, "aborted (FINISH_ABORT after admission)",
			"SGLang: the queue that holds an aborted request frees its pages when it answers.",
			"The simulation's illustration: the client gets its 400 but nobody frees the slot; the pages stay held and later requests wait in DecodePreallocQueue for capacity that never comes back.",
			"door-aborted"},
		{PendingCancelled, "cancelled (the client went away)",
			"SGLang: abort_request reaches the queue that holds the request, which stops it there (the router decides whether both halves hear it).",
			"The simulation's illustration: nothing checks that the client is gone; prefill, the transfer and decode run to the end for nobody, a whole request's pages of work wasted.",
			"door-cancelled"},
	}
}
