package engine

import "fmt"

// Send runs r through every stage to its response and returns the response.
// A request whose decode prealloc finds too few free pages waits in
// DecodePreallocQueue (State StateWaiting) and goes on when a Settle frees
// pages. An error (a *RequestError) means r was not taken and nothing changed.
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
	rec := &record{id: int32(len(e.reqs) + 1), tenant: ti, req: r, text: e.share(pageText(r.Tenant, r.Content)), content: pageContent(r.Content)}
	e.gatewaySees(ti, r.Content)
	e.reqs = append(e.reqs, rec)
	e.reqTenant = append(e.reqTenant, uint8(ti))
	e.m.requests++
	f := &flight{e: e, r: rec, v: e.cfg.Admit(r.PromptTokens, r.MaxNewTokens), prefillTokens: r.PromptTokens, decodeTokens: r.PromptTokens}
	f.resp = Response{Request: int(rec.id), Tenant: r.Tenant, Tokens: r.PromptTokens, Path: PathNormal}
	rec.resp = e.responses.len
	e.responses.add(f.resp, respChunk)
	landed := e.m.lateWrites
	f.run(0)
	if e.m.lateWrites != landed {
		// A late write landed and its prefill half freed its pages: a
		// request waiting for prefill's pool may fit now.
		e.retryWaiting()
	}
	return *e.response(rec.resp), nil
}

// flight carries one request through the stages.
type flight struct {
	e    *Engine
	r    *record
	v    Verdict // what intake and the door make of the prompt
	resp Response
	// prefillTokens is what prefill's forward pass builds and transfers:
	// the prompt, or the one placeholder token when prefill rejected it.
	prefillTokens int
	// decodeTokens is fill_len, what decode reserves and commits
	// (kv_committed_len): the prompt as decode's own intake saw it.
	decodeTokens int
	// written is the decode pages the transfer wrote, sent the positions.
	written Pages
	sent    int
	// waiting: parked until pages are free, to resume at stage resumeAt.
	waiting  bool
	resumeAt int
	// failedUnseen: the transfer failed and the door does not retire an
	// errored request, so decode goes on as if it had succeeded.
	failedUnseen bool
	// prefillRetired: SGLang's per-server door (#38935) retired prefill's
	// half while decode's admitted it, so no KV will ever come.
	prefillRetired bool
	// ghost: the client cancelled and the door does not retire a
	// cancelled request, so it runs on for nobody.
	ghost bool
}

// placeholder reports whether a server's intake rejected the prompt: its
// FINISH_ABORT(400) is pending and its prompt is the placeholder [0].
func (f *flight) placeholder() bool { return f.resp.Path == PathPlaceholder }

// Stage indices where a waiting flight resumes.
const (
	preallocStage = 3
	forwardStage  = 4
)

func (f *flight) stages() []func() bool {
	return []func() bool{
		f.intake, f.admission, f.bootstrap, f.prealloc,
		f.forward, f.transfer, f.decodeTransfer, f.running,
	}
}

// run goes through the stages from the given one to the response, or until
// a stage ends the request or parks it.
func (f *flight) run(from int) {
	done := true
	for _, stage := range f.stages()[from:] {
		if !stage() {
			done = false
			break
		}
	}
	if done {
		f.respond()
		f.release("decode (request finished)")
	}
	*f.e.response(f.r.resp) = f.resp
	if f.waiting {
		f.r.waiting = f
		f.e.queue = append(f.e.queue, f.r)
		return
	}
	f.r.waiting = nil
	f.e.m.record(f.resp)
}

// pagesFor is how many pages n tokens fill.
func (f *flight) pagesFor(n int) int {
	p := f.e.cfg.PageTokens
	return (n + p - 1) / p
}

// end sets the terminal state of a request that stops early.
func (f *flight) end(s State, status int, reason string) {
	f.resp.State, f.resp.Status, f.resp.Reason = s, status, reason
}

func (f *flight) respond() {
	if f.ghost {
		f.respondGhost()
		return
	}
	if f.resp.DecodeRejected {
		f.respondDecodeAbort()
		return
	}
	f.resp.State, f.resp.Status = StateFinished, 200
	f.resp.WrongStatus = f.placeholder() || f.failedUnseen
	f.resp.FailedUnseen = f.failedUnseen
	text := fmt.Sprintf("HTTP 200 to tenant %s.", f.resp.Tenant)
	switch {
	case f.resp.Leaked():
		text = fmt.Sprintf("HTTP 200 to tenant %s carrying %s: a leak.", f.resp.Tenant, leakPhrase(f.resp.Leaks))
	case f.failedUnseen:
		text = fmt.Sprintf("HTTP 200 to tenant %s for a request whose KV transfer failed.", f.resp.Tenant)
	case f.resp.WrongStatus:
		text = fmt.Sprintf("HTTP 200 to tenant %s for a request intake had rejected.", f.resp.Tenant)
	}
	f.e.emit(f.r, StageResponse, HalfDecode, nil, text)
	f.gatewayInspect()
	f.resp.Step = f.e.log.Len()
}

func (f *flight) respondError() {
	f.e.emit(f.r, StageResponse, HalfAPI, nil, fmt.Sprintf("HTTP %d to tenant %s: %s", f.resp.Status, f.resp.Tenant, f.resp.Reason))
	f.resp.Step = f.e.log.Len()
}

// respondDecodeAbort answers a request whose rejection was pending on
// decode: in its prebuilt batch, before any decode forward pass,
// check_finished turned to_finish into finished_reason, and the tokenizer
// manager turns a FINISH_ABORT with status 400 into the client's 400
// (managers/schedule_batch.py Req.check_finished, tokenizer_manager.py).
func (f *flight) respondDecodeAbort() {
	lim := f.e.cfg.LimitsOf(ServerDecode)
	f.end(StateRejected, 400, inputLengthMessage(f.r.req.PromptTokens, lim.MaxReqInputLen()))
	f.e.emit(f.r, StageResponse, HalfDecode, nil, fmt.Sprintf(
		"Decode's check_finished turned its pending to_finish into finished_reason, FINISH_ABORT(400); the tokenizer manager raises it and the router returns decode's HTTP 400 to tenant %s: “%s” Decode never attended.",
		f.resp.Tenant, f.resp.Reason))
	f.resp.Step = f.e.log.Len()
}

// release returns the request's decode reservation and prefill KV to
// their free lists, once each.
func (f *flight) release(who string) {
	f.e.releasePrefill(f.r, "prefill")
	f.e.releaseReserved(f.r, who)
}
