package engine

// Verdict is what the API and each server's scheduler make of one prompt
// before any queue takes it: the API's checks, each server's
// init_req_max_new_tokens and validate_input_length against its own pool,
// then the door. Send (with a log) and Stream (without) both take it from
// Config.Admit, so the rule is written once.
type Verdict struct {
	Tokens int
	// Refused is the API's refusal before either server sees the prompt.
	Refused Refusal
	// PrefillRejected and DecodeRejected: that server's validate_input_length
	// set FINISH_ABORT(400) in to_finish and swapped the prompt for [0].
	PrefillRejected, DecodeRejected bool
	// MaxNew is max_new_tokens as decode's init_req_max_new_tokens leaves
	// it: 0 means decode finishes the request in its prebuilt batch
	// (check_finished) without a forward pass, attending over nothing.
	MaxNew int
	// Fill is fill_len, what decode reserves and commits: the prompt as
	// decode's intake saw it (its placeholder when it rejected it).
	Fill int
	// Sent is what prefill's forward pass builds and transfers: the
	// prompt, or its one placeholder token.
	Sent int
	// Door is what the admission door does with the request.
	Door DoorVerdict
}

// Refusal is why the API refused a request outright.
type Refusal uint8

const (
	NotRefused Refusal = iota
	// RefusedContext: input_tokens >= context_len.
	RefusedContext
	// RefusedTotal: max_new_tokens + input > context_len, max_new_tokens sent.
	RefusedTotal
)

// DoorVerdict is what the admission door does with a request the API let
// through.
type DoorVerdict uint8

const (
	// DoorAdmits: no rejection is pending; both queues take the request.
	DoorAdmits DoorVerdict = iota
	// DoorWalksThrough: a rejection is pending in to_finish and the door,
	// checking only finished(), admits the request anyway.
	DoorWalksThrough
	// DoorRetires: the door retires the request with its 400 before
	// either server allocates a page.
	DoorRetires
	// DoorRetiresPrefill: SGLang's per-server door (#38935) retires
	// prefill's half; decode admitted the prompt and preallocates for KV
	// that never comes.
	DoorRetiresPrefill
)

// Placeholder reports whether a server's intake swapped the prompt.
func (v Verdict) Placeholder() bool { return v.PrefillRejected || v.DecodeRejected }

// Window reports whether prefill rejected the prompt and decode admitted
// it: the incident's window, whatever the door then does.
func (v Verdict) Window() bool { return v.PrefillRejected && !v.DecodeRejected }

// Admit is intake and the door for a prompt of n tokens with maxNew
// max_new_tokens as the client sent them (0: not sent).
func (c Config) Admit(n, maxNew int) Verdict {
	v := Verdict{Tokens: n, Fill: n, Sent: n}
	pre, dec := c.LimitsOf(ServerPrefill), c.LimitsOf(ServerDecode)
	switch {
	case pre.OverAPI(n):
		v.Refused = RefusedContext
		return v
	case pre.OverTotal(n, maxNew):
		v.Refused = RefusedTotal
		return v
	}
	v.MaxNew = dec.ClampMaxNew(n, maxNew)
	v.PrefillRejected, v.DecodeRejected = pre.Rejects(n), dec.Rejects(n)
	if v.PrefillRejected {
		v.Sent = 1
	}
	if v.DecodeRejected {
		v.Fill = 1
	}
	retires := c.Retires().Has(PendingRejected)
	switch {
	case !v.Placeholder():
		v.Door = DoorAdmits
	case !retires:
		v.Door = DoorWalksThrough
	case c.Mode.perServer() && !v.DecodeRejected:
		v.Door = DoorRetiresPrefill
	default:
		v.Door = DoorRetires
	}
	return v
}
