package engine

// Mode is the engine's handling of a request whose intake rejection is
// pending. SGLang PR #38704 has two parts, and each stops this leak alone.
type Mode string

const (
	// Vulnerable is the pre-patch engine: the door checks only
	// req.finished(), so a request whose rejection is pending (to_finish set)
	// walks through, and decode commits whatever it reserved.
	Vulnerable Mode = "vulnerable"
	// Fixed has both parts of SGLang #38704.
	Fixed Mode = "fixed"
	// RetireOnly has only the first part: a pending rejection is retired at
	// the admission door, before any page is allocated or transfer set up.
	RetireOnly Mode = "retire-only"
	// LengthCheckOnly has only the second part: decode checks the length
	// prefill transferred before it commits, and aborts the request when it
	// falls short of what decode would attend over.
	LengthCheckOnly Mode = "length-check-only"
)

// retires reports whether the door retires a pending rejection.
func (m Mode) retires() bool { return m == Fixed || m == RetireOnly }

// checksLength reports whether decode checks the transferred length.
func (m Mode) checksLength() bool { return m == Fixed || m == LengthCheckOnly }

// ModeInfo describes a mode for a chooser.
type ModeInfo struct {
	Mode Mode   `json:"mode"`
	Name string `json:"name"`
	// Description says what the mode does and what of it is SGLang's.
	Description string `json:"description"`
}

// Modes lists the modes in the order a chooser shows them. Each call
// returns a fresh slice.
func Modes() []ModeInfo {
	return []ModeInfo{
		{Vulnerable, "vulnerable",
			"SGLang before #38704, as the incident ran it: the admission door checks only req.finished(), which is false while FINISH_ABORT(400) is pending in to_finish, and decode commits its whole reservation."},
		{Fixed, "fixed",
			"SGLang #38704 (v0.5.21 for Mooncake and NIXL, v0.5.22 for MORI), both parts: the door retires the pending rejection with its 400, and decode checks the transferred length before it commits."},
		{RetireOnly, "retire at admission only",
			"The first part of #38704 alone: the prefill door creates no KV sender and the decode door no KV receiver; the request keeps its 400 and no page is allocated. Enough on its own for this leak."},
		{LengthCheckOnly, "length check only",
			"The second part of #38704 alone: the request is admitted, its slot reserved and one placeholder token transferred, but decode sees that prefill sent less than it would commit and aborts with the pending 400 instead of reading stale pages. Enough on its own for this leak; the 400 comes after the allocation."},
	}
}

func validMode(m Mode) bool {
	for _, i := range Modes() {
		if i.Mode == m {
			return true
		}
	}
	return false
}
