package engine

import "fmt"

// Send runs r through every stage to its response and returns the response.
// An error (a *RequestError) means r was not taken and nothing changed.
func (e *Engine) Send(r Request) (Response, error) {
	if err := r.Validate(); err != nil {
		return Response{}, err
	}
	if len(e.reqs) >= MaxRequests {
		return Response{}, &RequestError{"requests", fmt.Sprintf("this run already has %s requests, the most one run can hold; press Reset", th(MaxRequests))}
	}
	ti, err := e.tenantIndex(r.Tenant)
	if err != nil {
		return Response{}, err
	}
	rec := &record{id: int32(len(e.reqs) + 1), tenant: ti, req: r, text: pageText(r.Tenant, r.Content)}
	e.reqs = append(e.reqs, rec)
	e.reqTenant = append(e.reqTenant, uint8(ti))
	f := &flight{e: e, r: rec, tokens: r.PromptTokens}
	f.resp = Response{Request: int(rec.id), Tenant: r.Tenant, Tokens: r.PromptTokens, Path: PathNormal}
	f.run()
	rec.resp = len(e.responses)
	e.responses = append(e.responses, f.resp)
	e.m.record(f.resp)
	return f.resp, nil
}

// flight carries one request through the stages.
type flight struct {
	e       *Engine
	r       *record
	resp    Response
	tokens  int // tokens prefill will write: 1 on the placeholder path
	written Pages
}

func (f *flight) placeholder() bool { return f.resp.Path == PathPlaceholder }

func (f *flight) run() {
	stages := []func() bool{
		f.intake, f.admission, f.bootstrap, f.prealloc,
		f.forward, f.transfer, f.decodeTransfer, f.running,
	}
	for _, stage := range stages {
		if !stage() {
			return
		}
	}
	f.respond()
	f.release("decode (request finished)")
}

// pagesFor is how many pages n tokens fill.
func (f *flight) pagesFor(n int) int {
	p := f.e.cfg.PageTokens
	return (n + p - 1) / p
}

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
		f.r.text = pageText(f.r.req.Tenant, PlaceholderContent)
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

func (f *flight) admission() bool {
	switch {
	case f.placeholder() && f.e.cfg.Mode == Fixed:
		f.end(StateRejected, 400, inputLengthMessage(f.r.req.PromptTokens, f.e.cfg.MaxReqInputLen()))
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"The fixed door sees the pending FINISH_ABORT(400) and retires the request: no KV sender, no KV receiver, no page allocated.")
		f.respondError()
		return false
	case f.placeholder():
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"The door checks only req.finished() — false — and admits the request. The pending FINISH_ABORT(400) is never looked at.")
	default:
		f.e.emit(f.r, StageAdmission, HalfBoth, nil,
			"Admitted: PrefillBootstrapQueue and DecodePreallocQueue take the request.")
	}
	return true
}

func (f *flight) bootstrap() bool {
	if f.cancelled(StagePrefillBootstrap) {
		return false
	}
	f.e.emit(f.r, StagePrefillBootstrap, HalfPrefill, nil, fmt.Sprintf(
		"Prefill creates a KV sender for bootstrap_room %d and waits for decode's page indices.", f.r.id))
	return true
}

func (f *flight) prealloc() bool {
	if f.cancelled(StageDecodePrealloc) {
		return false
	}
	want := f.e.cfg.SlotPages
	if !f.placeholder() {
		want = max(want, f.pagesFor(f.tokens))
	}
	m, merged, err := f.e.pool.alloc(want, f.r.id)
	if err != nil {
		f.end(StateErrored, 503, "KV pool exhausted: "+err.Error())
		f.e.emit(f.r, StageDecodePrealloc, HalfDecode, nil,
			"DecodePreallocQueue cannot reserve the slot — KV pool exhausted: "+err.Error()+". Both halves drop the request; nothing was allocated.")
		f.respondError()
		return false
	}
	pages := m.pages
	f.r.slot = pages
	f.resp.Allocated = pages.Len()
	f.e.emit(f.r, StageDecodePrealloc, HalfDecode, pages, fmt.Sprintf(
		"%sDecodePreallocQueue reserves %s %s (%s) and sends their indices to prefill (send_metadata).%s",
		mergeNote(merged), th(pages.Len()), plural(pages.Len(), "page", "pages"), pages, f.e.staleNote(pages)), m)
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
	if f.r.req.FailTransfer {
		f.end(StateErrored, 500, "KV transfer failed (KVPoll.Failed)")
		f.e.emit(f.r, StagePrefillTransfer, HalfBoth, nil,
			"send_kv_chunk fails: both halves poll KVPoll.Failed. Prefill closes its KV sender.")
		f.respondError()
		f.release("decode (after KVPoll.Failed)")
		return false
	}
	f.written = f.r.slot.Head(f.pagesFor(f.tokens))
	text := fmt.Sprintf("send_kv_chunk(last_chunk=True) writes %s %s (%s) into decode's reservation: KVPoll.Success. Prefill closes its KV sender.",
		th(f.written.Len()), plural(f.written.Len(), "page", "pages"), f.written)
	if f.placeholder() {
		text += " On success prefill sets finished_reason = FINISH_LENGTH(0), overwriting the pending 400."
	}
	f.e.emit(f.r, StagePrefillTransfer, HalfPrefill, f.written, text, f.e.pool.write(f.written, f.r.id))
	return true
}

func (f *flight) decodeTransfer() bool {
	if f.cancelled(StageDecodeTransfer) {
		return false
	}
	text := fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len covers the %s written %s.",
		th(f.written.Len()), plural(f.written.Len(), "page", "pages"))
	if f.placeholder() {
		text = fmt.Sprintf("DecodeTransferQueue polls KVPoll.Success; kv_committed_len is the whole reservation, %s pages, not the one page prefill wrote.",
			th(f.r.slot.Len()))
	}
	f.e.emit(f.r, StageDecodeTransfer, HalfDecode, nil, text)
	return true
}

func (f *flight) running() bool {
	if f.cancelled(StageDecodeRunning) {
		return false
	}
	read := f.written
	if f.placeholder() {
		read = f.r.slot // it attends over what it reserved, not what prefill wrote
	}
	f.e.readInto(&f.resp, read, f.r)
	f.resp.ReadStep = len(f.e.events) + 1
	f.e.emit(f.r, StageDecodeRunning, HalfDecode, read, fmt.Sprintf(
		"The running batch attends over %s %s: %s.", th(read.Len()), plural(read.Len(), "page", "pages"), f.e.provenance(f.resp)))
	return true
}

func (f *flight) respond() {
	f.resp.State, f.resp.Status = StateFinished, 200
	f.resp.WrongStatus = f.placeholder()
	text := fmt.Sprintf("HTTP 200 to tenant %s.", f.resp.Tenant)
	switch {
	case f.resp.Leaked():
		text = fmt.Sprintf("HTTP 200 to tenant %s carrying %s: a leak.", f.resp.Tenant, leakPhrase(f.resp.Leaks))
	case f.resp.WrongStatus:
		text = fmt.Sprintf("HTTP 200 to tenant %s for a request intake had rejected.", f.resp.Tenant)
	}
	f.e.emit(f.r, StageResponse, HalfDecode, nil, text)
	f.resp.Step = len(f.e.events)
}

// end sets the terminal state of a request that stops early.
func (f *flight) end(s State, status int, reason string) {
	f.resp.State, f.resp.Status, f.resp.Reason = s, status, reason
}

func (f *flight) respondError() {
	f.e.emit(f.r, StageResponse, HalfAPI, nil, fmt.Sprintf("HTTP %d to tenant %s: %s.", f.resp.Status, f.resp.Tenant, f.resp.Reason))
	f.resp.Step = len(f.e.events)
}

// release returns the request's slot to the free list, once.
func (f *flight) release(who string) {
	f.e.releaseSlot(f.r, who)
}

// mergeNote says that the reservation first ran merge_and_sort_free.
func mergeNote(merged int) string {
	if merged == 0 {
		return ""
	}
	return fmt.Sprintf("free_pages is short: merge_and_sort_free merges the %s staged %s of release_pages back in, sorted by page id. ",
		th(merged), plural(merged, "page", "pages"))
}
