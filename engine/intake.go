package engine

import "fmt"

// intake is the API's context check and validate_input_length.
func (f *flight) intake() bool {
	cfg, n := f.e.cfg, f.r.req.PromptTokens
	overAPI, overEngine := f.e.limits(n)
	switch {
	case overAPI:
		f.resp.Path = PathAPIReject
		f.end(StateRejected, 400, apiMessage(n, cfg.ContextTokens))
		f.e.emit(f.r, StageIntake, HalfAPI, nil, fmt.Sprintf(
			"The API (tokenizer manager) refuses the prompt before the engine sees it: %s tokens is not below the advertised %s-token context. 400: “%s”",
			th(n), th(cfg.ContextTokens), f.resp.Reason))
		f.respondError()
		return false
	case overEngine:
		f.resp.Path = PathPlaceholder
		f.tokens = 1
		f.r.text, f.r.content = f.e.share(pageText(f.r.req.Tenant, PlaceholderContent)), PlaceholderContent
		f.e.emit(f.r, StageIntake, HalfBoth, nil, fmt.Sprintf(
			"validate_input_length: %s tokens is at least max_req_input_len %s (%s): “%s” set_finish_with_abort: the prompt becomes one placeholder token (origin_input_ids = [0]) and to_finish = FINISH_ABORT(400, BadRequestError) is pending — finished() is still false.",
			th(n), th(cfg.MaxReqInputLen()), limitWords(cfg), inputLengthMessage(n, cfg.MaxReqInputLen())))
	default:
		f.e.emit(f.r, StageIntake, HalfBoth, nil, fmt.Sprintf(
			"validate_input_length: %s tokens is below max_req_input_len %s (%s): the prompt is read in full.",
			th(n), th(cfg.MaxReqInputLen()), limitWords(cfg)))
	}
	return true
}

// limitWords shows how max_req_input_len comes from the running engine.
func limitWords(c Config) string {
	return fmt.Sprintf("min(context %s − 1, pool %s − 1) − 5", th(c.ContextTokens), th(c.UsableTokens()))
}

// admission is the door: PrefillBootstrapQueue and DecodePreallocQueue.
func (f *flight) admission() bool {
	switch {
	case f.placeholder() && f.e.cfg.Retires().Has(PendingRejected):
		f.end(StateRejected, 400, inputLengthMessage(f.r.req.PromptTokens, f.e.cfg.MaxReqInputLen()))
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"The patched door (#38704) sees the pending FINISH_ABORT(400) and retires the request: no KV sender, no KV receiver, no page allocated; it keeps its 400.")
		f.respondError()
		return false
	case f.placeholder():
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"The door checks only req.finished() — false — and admits the request. The pending FINISH_ABORT(400) in to_finish is never looked at.")
	default:
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"Admitted: PrefillBootstrapQueue and DecodePreallocQueue take the request.")
	}
	return true
}
