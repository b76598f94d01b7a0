package engine

import "fmt"

// intake is the API's context check, then each server's
// validate_input_length against its own pool (managers/utils.py): the
// router sends the same request to both, and each decides alone.
func (f *flight) intake() bool {
	cfg, n, v := f.e.cfg, f.r.req.PromptTokens, f.v
	switch v.Refused {
	case RefusedContext:
		f.resp.Path = PathAPIReject
		f.end(StateRejected, 400, apiMessage(n, cfg.ContextTokens))
		f.e.emit(f.r, StageIntake, HalfAPI, nil, fmt.Sprintf(
			"The API (tokenizer manager) refuses the prompt before either server sees it: %s tokens is not below the advertised %s-token context. 400: “%s”",
			th(n), th(cfg.ContextTokens), f.resp.Reason))
		f.respondError()
		return false
	case RefusedTotal:
		m := f.r.req.MaxNewTokens
		f.resp.Path = PathAPIReject
		f.end(StateRejected, 400, totalMessage(n, m, cfg.ContextTokens))
		f.e.emit(f.r, StageIntake, HalfAPI, nil, fmt.Sprintf(
			"The API (tokenizer manager, _validate_one_request) refuses the request before either server sees it: %s prompt tokens + max_new_tokens %s is more than the %s-token context. 400: “%s”",
			th(n), th(m), th(cfg.ContextTokens), f.resp.Reason))
		f.respondError()
		return false
	}
	for _, s := range Servers {
		f.validate(s, n)
	}
	f.resp.PrefillRejected, f.resp.DecodeRejected = v.PrefillRejected, v.DecodeRejected
	f.resp.MaxNew = v.MaxNew
	f.prefillTokens, f.decodeTokens = v.Sent, v.Fill
	if v.PrefillRejected {
		f.r.text, f.r.content = f.e.share(pageText(f.r.req.Tenant, PlaceholderContent)), PlaceholderContent
	}
	if v.Placeholder() {
		f.resp.Path = PathPlaceholder
	}
	return true
}

// validate is one server's validate_input_length. A rejection is
// set_finish_with_abort: the prompt becomes the placeholder [0] and
// to_finish = FINISH_ABORT(400) is pending, while finished() stays false.
func (f *flight) validate(s Server, n int) {
	lim := f.e.cfg.LimitsOf(s)
	half := HalfPrefill
	if s == ServerDecode {
		half = HalfDecode
	}
	// The clamp runs on both servers; only decode's decides anything here.
	clamp := ""
	if s == ServerDecode {
		clamp = fmt.Sprintf("init_req_max_new_tokens leaves max_new_tokens %s; ", th(f.v.MaxNew))
	}
	if !lim.Rejects(n) {
		f.e.emit(f.r, StageIntake, half, nil, fmt.Sprintf(
			"The %s server: %svalidate_input_length: %s %s below its max_req_input_len %s (%s): the prompt is read in full.",
			s, clamp, th(n), plural(n, "token is", "tokens is"), th(lim.MaxReqInputLen()), lim.Words()))
		return
	}
	f.e.emit(f.r, StageIntake, half, nil, fmt.Sprintf(
		"The %s server: %svalidate_input_length: %s %s at least its max_req_input_len %s (%s): “%s” set_finish_with_abort: on %s the prompt becomes one placeholder token (origin_input_ids = [0]) and to_finish = FINISH_ABORT(400, BadRequestError) is pending — finished() is still false.",
		s, clamp, th(n), plural(n, "token is", "tokens is"), th(lim.MaxReqInputLen()), lim.Words(), inputLengthMessage(n, lim.MaxReqInputLen()), s))
}

// rejection is the pending 400 the door or the length check answers with,
// and the server whose message it is: decode's when decode rejected the
// prompt too, as the router returns decode's answer to the client
// (mini_lb), else prefill's.
func (f *flight) rejection() (Server, string) {
	s := ServerDecode
	if !f.resp.DecodeRejected {
		s = ServerPrefill
	}
	return s, inputLengthMessage(f.r.req.PromptTokens, f.e.cfg.LimitsOf(s).MaxReqInputLen())
}

// rejectedOn names the servers whose rejection is pending.
func (f *flight) rejectedOn() string {
	switch {
	case f.resp.PrefillRejected && f.resp.DecodeRejected:
		return "both servers"
	case f.resp.PrefillRejected:
		return "the prefill server"
	}
	return "the decode server"
}

// admission is the door: PrefillBootstrapQueue and DecodePreallocQueue.
func (f *flight) admission() bool {
	switch f.v.Door {
	case DoorRetiresPrefill:
		return f.perServerDoors()
	case DoorRetires:
		if f.e.cfg.Mode.perServer() {
			return f.perServerDoors()
		}
		_, reason := f.rejection()
		f.end(StateRejected, 400, reason)
		f.e.emit(f.r, StageAdmission, HalfBoth, nil, fmt.Sprintf(
			"Cloudflare's patch (as the article tells it) sees the pending FINISH_ABORT(400) on %s and retires the request on both servers: no KV sender, no KV receiver, no page allocated on either server; it keeps its 400.", f.rejectedOn()))
		f.respondError()
		return false
	case DoorWalksThrough:
		f.e.emit(f.r, StageAdmission, HalfBoth, nil, fmt.Sprintf(
			"The door checks only req.finished() — false — and admits the request. The pending FINISH_ABORT(400) in to_finish on %s is never looked at.", f.rejectedOn()))
	default:
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"Admitted: PrefillBootstrapQueue and DecodePreallocQueue take the request.")
	}
	return true
}

// perServerDoors is SGLang's merged door (#38935): PrefillBootstrapQueue.add
// and DecodePreallocQueue.add each call retire_unadmitted_request only for a
// request whose own to_finish is set (test_admission_abort_not_enqueued.py).
// The router returns decode's answer (mini_lb), so when decode rejected too
// the client gets decode's 400 at once; when only prefill rejected, decode
// goes on (see prefillRetired).
func (f *flight) perServerDoors() bool {
	if f.resp.DecodeRejected {
		text := "SGLang's door (#38935): DecodePreallocQueue.add retires decode's half, whose to_finish is set, before any KV receiver; the router returns decode's 400. Prefill admitted the prompt and its KV sender waits for decode's page indices until its bootstrap timeout: no page is allocated on either server."
		if f.resp.PrefillRejected {
			text = "SGLang's door (#38935): each server sees its own pending FINISH_ABORT(400). PrefillBootstrapQueue.add retires prefill's half before any KV sender, DecodePreallocQueue.add retires decode's before any KV receiver; no page is allocated, and the router returns decode's 400."
		}
		_, reason := f.rejection()
		f.end(StateRejected, 400, reason)
		f.e.emit(f.r, StageAdmission, HalfBoth, nil, text)
		f.respondError()
		return false
	}
	f.prefillRetired = true
	f.e.emit(f.r, StageAdmission, HalfBoth, nil,
		"SGLang's door (#38935) is per server. PrefillBootstrapQueue.add sees prefill's pending FINISH_ABORT(400) and retires prefill's half (retire_unadmitted_request): no KV sender, no forward pass. DecodePreallocQueue.add sees no to_finish on decode's request — decode admitted the prompt — so it builds a KV receiver and queues it for prealloc.")
	return true
}
