package engine

// Mode is the engine's handling of a request whose intake rejection is
// pending. Two fixes are on offer. Cloudflare's patch, as the article tells
// it, retires the request at admission before any allocation or transfer;
// the article says it went upstream as #38704 with a transferred-length
// check, in v0.5.21 and v0.5.22 (the article's account: in SGLang's tracker
// #38704 is an open pull request, and no transferred-length check has been
// seen merged). SGLang's merged door fix is #38935 (2026-09-15): each
// disaggregation queue retires only a request carrying its own to_finish.
type Mode string

const (
	// Vulnerable is the pre-patch engine: the door checks only
	// req.finished(), so a request whose rejection is pending (to_finish set)
	// walks through, and decode commits whatever it reserved.
	Vulnerable Mode = "vulnerable"
	// Fixed is Cloudflare's patch as the article tells it: both parts the
	// article attributes to #38704, a joint door and the length check.
	Fixed Mode = "fixed"
	// RetireOnly has only the first part: a pending rejection is retired at
	// the admission door, before any page is allocated or transfer set up.
	RetireOnly Mode = "retire-only"
	// LengthCheckOnly has only the second part: decode checks the length
	// prefill transferred before it commits, and aborts the request when it
	// falls short of what decode would attend over.
	LengthCheckOnly Mode = "length-check-only"
	// Upstream is SGLang's merged door (#38935, test
	// test_admission_abort_not_enqueued.py): PrefillBootstrapQueue.add and
	// DecodePreallocQueue.add each retire a request only when their own
	// server's intake set its to_finish. In the leak's window decode
	// admitted the prompt, so decode builds a receiver and preallocates.
	Upstream Mode = "upstream"
)

// retires reports whether the door retires a pending rejection.
func (m Mode) retires() bool { return m == Fixed || m == RetireOnly || m == Upstream }

// perServer reports whether each server's door decides alone (#38935).
func (m Mode) perServer() bool { return m == Upstream }

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
			"SGLang before the door fixes, as the incident ran it: the admission door checks only req.finished(), which is false while FINISH_ABORT(400) is pending in to_finish, and decode commits its whole reservation."},
		{Fixed, "Cloudflare's patch (the article)",
			"Cloudflare's patch as the article tells it: the rejected request is retired at admission, before any KV allocation or transfer, on both servers, with its 400; the article adds a transferred-length check before decode commits, and says the fix went upstream as #38704 and landed in v0.5.21 (Mooncake, NIXL) and v0.5.22 (MORI). That is the article's account: in SGLang's tracker #38704 is an open pull request, and the transferred-length check has not been seen merged."},
		{RetireOnly, "the article's door alone",
			"The article's joint door (the fix it attributes to #38704) without the length check: the prefill door creates no KV sender and the decode door no KV receiver; the request keeps its 400 and no page is allocated. Enough on its own for this leak."},
		{LengthCheckOnly, "the article's length check alone",
			"The transferred-length check the article attributes to #38704, alone (not seen merged upstream): the request is admitted, its pages reserved and one placeholder token transferred, but decode sees that prefill sent less than it would commit and aborts with the pending 400 instead of reading stale pages. Enough on its own for this leak; the 400 comes after the allocation."},
		{Upstream, "SGLang upstream (#36988 with #38935)",
			"SGLang as merged: #36988 (2026-08-29) retires an aborted prefill result after its forward pass instead of sending it, and #38935 (2026-09-15; test_admission_abort_not_enqueued.py) has PrefillBootstrapQueue.add and DecodePreallocQueue.add each retire only a request whose own to_finish is set. Where prefill rejected and decode admitted, prefill's half is retired (no KV sender), but decode builds a receiver and preallocates; no KV ever comes, decode's receiver times out into KVPoll.Failed and answers 500. No stale page is read. The status the client sees depends on the router: SGLang's mini_lb and sgl-router return decode's 500; a gateway that answers with prefill's response first would return prefill's 400."},
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
