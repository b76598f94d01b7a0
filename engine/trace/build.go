package trace

import (
	"strconv"
	"strings"

	"kvleak/engine"
)

// builder turns a replayed engine's log into events.
type builder struct {
	e      *engine.Engine
	cfg    engine.Config
	log    engine.Log
	events []event
	// tracks are the requests with a track on each process, in the order
	// they first drew on it, to name them; seen says which are there.
	tracks [pidDecode + 1][]int
	seen   map[track]bool
	// first and last are each request's first and last log step.
	first, last map[int]int
	flows       int
}

type track struct {
	pid pid
	tid int
}

func newBuilder(e *engine.Engine) *builder {
	return &builder{e: e, cfg: e.Config(), log: e.Log(), seen: map[track]bool{}, first: map[int]int{}, last: map[int]int{}}
}

// slot is where step n's slot starts, in microseconds.
func slot(step int) int64 { return int64(step-1) * StepMicros }

// mid is the middle of step n's slot: instants and flow ends sit there, so
// that they fall inside the slice of that step and bind to it.
func mid(step int) int64 { return slot(step) + StepMicros/2 }

// pidsOf is where an event of a half is drawn. The API in front (the
// tokenizer manager's context check, the gateway) is drawn on the router's
// process: the one front end the client talks to. The door (HalfBoth) is
// drawn on both servers, each of which runs its own.
func pidsOf(h engine.Half) []pid {
	switch h {
	case engine.HalfPrefill:
		return []pid{pidPrefill}
	case engine.HalfDecode:
		return []pid{pidDecode}
	case engine.HalfBoth:
		return []pid{pidPrefill, pidDecode}
	}
	return []pid{pidRouter}
}

func onDecode(h engine.Half) bool { return h == engine.HalfDecode || h == engine.HalfBoth }

func (b *builder) add(ev event) {
	if t := (track{ev.pid, ev.tid}); ev.ph != 'C' && !b.seen[t] {
		b.seen[t] = true
		b.tracks[ev.pid] = append(b.tracks[ev.pid], ev.tid)
	}
	b.events = append(b.events, ev)
}

func (b *builder) build() {
	n := b.log.Len()
	for i := range n {
		ev := b.log.At(i)
		if _, ok := b.first[ev.Request]; !ok {
			b.first[ev.Request] = ev.Step
		}
		b.last[ev.Request] = ev.Step
	}
	pools := newPoolCounters(b)
	pools.sample(0)
	for i := range n {
		ev := b.log.At(i)
		pools.move(ev.Step)
		b.stage(i, ev, pools.views[decodeView])
		pools.sample(ev.Step)
	}
	b.requests()
	b.events = append(b.metadata(), byTime(b.events)...)
}

// stage draws one log event: its slice on each process of its half, and
// what the stage adds — the door's instants, the transfer's flow, the
// response's verdict.
func (b *builder) stage(i int, ev *engine.Event, decode *engine.Snapshot) {
	a := newArgs().num("step", ev.Step).str("tenant", ev.Tenant).str("half", string(ev.Half))
	if len(ev.Pages) > 0 {
		a.str("pool", string(ev.Pool)).num("pages", ev.Pages.Len()).str("page_ids", ev.Pages.String())
	}
	if ev.Poll != "" {
		a.str("KVPoll", string(ev.Poll))
	}
	if ev.Victim != 0 {
		a.str("victim", "r"+strconv.Itoa(ev.Victim))
	}
	switch ev.Stage {
	case engine.StageIntake:
		b.intake(ev)
	case engine.StageAdmission:
		b.admission(i, ev)
	case engine.StagePrefillTransfer:
		b.transfer(i, ev, decode, a)
	case engine.StageResponse:
		b.response(ev, a)
	}
	js := a.str("text", ev.Text).json()
	for _, p := range pidsOf(ev.Half) {
		b.add(event{name: string(ev.Stage), cat: "stage", ph: 'X', ts: slot(ev.Step), dur: StepMicros, pid: p, tid: ev.Request, args: js})
	}
}

// resp is the response to a request.
func (b *builder) resp(request int) engine.Response {
	r, _ := b.e.Response(request)
	return r
}

const (
	pendingAbort = "FINISH_ABORT(400, BadRequestError)"
	noFinish     = "None"
)

// intake is validate_input_length's decision on one server, or the API's
// context check in front of both.
func (b *builder) intake(ev *engine.Event) {
	r := b.resp(ev.Request)
	if ev.Half == engine.HalfAPI {
		a := newArgs().num("prompt_tokens", r.Tokens).num("context_len", b.cfg.ContextTokens).
			str("verdict", "refused: input_tokens >= context_len, 400")
		b.add(event{name: "context check", cat: "door", ph: 'i', ts: mid(ev.Step), pid: pidRouter, tid: ev.Request, args: a.json()})
		return
	}
	server, rejected, p := engine.ServerPrefill, r.PrefillRejected, pidPrefill
	if ev.Half == engine.HalfDecode {
		server, rejected, p = engine.ServerDecode, r.DecodeRejected, pidDecode
	}
	verdict, toFinish, prompt := "read in full", noFinish, r.Tokens
	if rejected {
		verdict, toFinish, prompt = "rejected: set_finish_with_abort", pendingAbort, 1
	}
	a := newArgs().num("prompt_tokens", r.Tokens).num("max_req_input_len", b.cfg.LimitsOf(server).MaxReqInputLen()).
		str("verdict", verdict).num("origin_input_ids", prompt).boolean("finished()", false).str("to_finish", toFinish)
	b.add(event{name: "validate_input_length", cat: "door", ph: 'i', ts: mid(ev.Step), pid: p, tid: ev.Request, args: a.json()})
}

// admission is the door's decision, drawn on each server with what that
// server's request holds. Whether it retired the request is what the log
// did next: a retired request's next event is its response.
func (b *builder) admission(i int, ev *engine.Event) {
	r := b.resp(ev.Request)
	verdict := "admitted"
	if next := b.next(i, ev.Request, func(e *engine.Event) bool { return true }); next != nil && next.Stage == engine.StageResponse {
		verdict = "retired with its 400: no KV sender, no KV receiver, no page"
	}
	for _, s := range []struct {
		server   engine.Server
		pid      pid
		rejected bool
	}{{engine.ServerPrefill, pidPrefill, r.PrefillRejected}, {engine.ServerDecode, pidDecode, r.DecodeRejected}} {
		toFinish := noFinish
		if s.rejected {
			toFinish = pendingAbort
		}
		a := newArgs().boolean("finished()", false).str("to_finish", toFinish).
			num("max_req_input_len", b.cfg.LimitsOf(s.server).MaxReqInputLen()).str("verdict", verdict)
		b.add(event{name: "admission door", cat: "door", ph: 'i', ts: mid(ev.Step), pid: s.pid, tid: ev.Request, args: a.json()})
	}
}

// next is the first event after event i of request id that ok accepts.
func (b *builder) next(i, id int, ok func(*engine.Event) bool) *engine.Event {
	for j := i + 1; j < b.log.Len(); j++ {
		if e := b.log.At(j); e.Request == id && ok(e) {
			return e
		}
	}
	return nil
}

// transfer is send_kv_chunk: a flow from prefill's slice to the receiving
// request's next slice on decode — its DecodeTransferQueue poll, or, for a
// cancelled request, its release; for a late write, the victim's. It adds
// to the slice's args the tokens written against the positions decode
// will attend over.
func (b *builder) transfer(i int, ev *engine.Event, decode *engine.Snapshot, a *args) {
	if ev.Pool != engine.ServerDecode || len(ev.Pages) == 0 {
		return // a failed send writes nothing
	}
	receiver := ev.Request
	if ev.Victim != 0 {
		receiver = ev.Victim
	}
	written := tokensWritten(decode, ev.Pages, ev.Request, b.cfg.PageTokens)
	committed := b.resp(receiver).Committed
	a.num("tokens_written", written).str("receiver", "r"+strconv.Itoa(receiver)).num("kv_committed_len", committed)
	to := b.next(i, receiver, func(e *engine.Event) bool { return onDecode(e.Half) })
	if to == nil {
		a.str("flow", "none: no later event of the receiver on decode")
		return
	}
	b.flows++
	flow := newArgs().num("tokens_written", written).num("kv_committed_len", committed).json()
	b.add(event{name: "send_kv_chunk", cat: "kv_transfer", ph: 's', ts: mid(ev.Step), pid: pidPrefill, tid: ev.Request, id: b.flows, args: flow})
	b.add(event{name: "send_kv_chunk", cat: "kv_transfer", ph: 'f', ts: mid(to.Step), pid: pidDecode, tid: receiver, id: b.flows, args: flow})
}

// tokensWritten is how many positions writer's transfer wrote into pages,
// read from decode's pool after it: every page but the last whole, and of
// the last the positions up to where its write ended.
func tokensWritten(decode *engine.Snapshot, pages engine.Pages, writer, pageTokens int) int {
	last := pages[len(pages)-1]
	p, err := decode.Page(last.First + last.Count - 1)
	inLast := pageTokens
	if err == nil && len(p.Positions) > 0 && p.Positions[0].Writer == writer {
		inLast = p.Positions[0].Last + 1
	}
	return (pages.Len()-1)*pageTokens + inLast
}

// response marks the response slice with what the client got, and a leak
// with an instant on decode's track where decode attended over it.
func (b *builder) response(ev *engine.Event, a *args) {
	r := b.resp(ev.Request)
	a.num("status", r.Status).str("state", string(r.State)).str("verdict", r.Verdict())
	if r.Reason != "" {
		a.str("reason", r.Reason)
	}
	a.boolean("leaked", r.Leaked())
	if r.Committed > 0 {
		a.num("kv_committed_len", r.Committed).num("tokens_sent", r.Sent)
	}
	if r.Leaked() {
		a.num("leaked_pages", r.LeakedPages.Len()).num("foreign_tokens", r.ForeignTokens).str("leaks", leaks(r.Leaks))
		at := r.ReadStep
		if at == 0 {
			at = ev.Step
		}
		leak := newArgs().num("leaked_pages", r.LeakedPages.Len()).num("foreign_tokens", r.ForeignTokens).str("leaks", leaks(r.Leaks)).
			num("kv_committed_len", r.Committed).num("tokens_sent", r.Sent).num("response_step", ev.Step)
		b.add(event{name: "LEAK", cat: "leak", ph: 'i', ts: mid(at), pid: pidDecode, tid: ev.Request, args: leak.json()})
	}
	a.boolean("wrong_status", r.WrongStatus)
}

// leaks is "tenant A: 7 pages, 119 positions; …".
func leaks(ls []engine.Leak) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = "tenant " + l.Tenant + ": " + strconv.Itoa(l.Pages) + " pages, " + strconv.Itoa(l.Tokens) + " positions"
	}
	return strings.Join(parts, "; ")
}

// requests draws each request on the client's process: one slice from its
// first event to its response (or its last event, when it has none).
func (b *builder) requests() {
	for id := 1; ; id++ {
		r, ok := b.e.Response(id)
		if !ok {
			return
		}
		first, seen := b.first[id]
		if !seen {
			continue
		}
		end := r.Step
		if end == 0 {
			end = b.last[id]
		}
		outcome := strconv.Itoa(r.Status)
		switch r.State {
		case engine.StateWaiting:
			outcome = "waiting"
		case engine.StateCancelled:
			outcome = "cancelled"
		}
		if r.Leaked() {
			outcome += ", leak"
		}
		a := newArgs().str("tenant", r.Tenant).num("prompt_tokens", r.Tokens).str("path", string(r.Path)).
			str("state", string(r.State)).num("status", r.Status).boolean("leaked", r.Leaked()).str("verdict", r.Verdict())
		b.add(event{name: "r" + strconv.Itoa(id) + " tenant " + r.Tenant + ": " + outcome, cat: "request", ph: 'X',
			ts: slot(first), dur: slot(end+1) - slot(first), pid: pidClient, tid: id, args: a.json()})
	}
}

// metadata names the processes and each request's track on them, in order.
func (b *builder) metadata() []event {
	var out []event
	for p := pidClient; p <= pidDecode; p++ {
		out = append(out,
			event{name: "process_name", ph: 'M', pid: p, args: newArgs().str("name", processNames[p]).json()},
			event{name: "process_sort_index", ph: 'M', pid: p, args: newArgs().num("sort_index", int(p)).json()})
	}
	for p := pidClient; p <= pidDecode; p++ {
		for _, tid := range b.tracks[p] {
			out = append(out,
				event{name: "thread_name", ph: 'M', pid: p, tid: tid, args: newArgs().str("name", "r"+strconv.Itoa(tid)+" tenant "+b.e.TenantOf(tid)).json()},
				event{name: "thread_sort_index", ph: 'M', pid: p, tid: tid, args: newArgs().num("sort_index", tid).json()})
		}
	}
	return out
}

// otherData is the trace's metadata: what run it is and how to read time.
func (b *builder) otherData(name string) []byte {
	c := b.cfg
	requests := 0
	for ; ; requests++ {
		if _, ok := b.e.Response(requests + 1); !ok {
			break
		}
	}
	return newArgs().
		str("generator", "kvleak playground: a GPU-free simulation of SGLang's disaggregated prefill/decode KV-cache leak").
		str("run", RunName(name)).str("time_model", TimeModel).num("step_us", StepMicros).
		num("steps", b.log.Len()).num("requests", requests).num("flows", b.flows).
		num("context_tokens", c.ContextTokens).num("prefill_pool_tokens", c.PoolTokens).num("decode_pool_tokens", c.DecodePoolTokens).
		num("page_tokens", c.PageTokens).num("decode_reserved_tokens", c.ReservedDecodeTokens).str("mode", string(c.Mode)).str("door_retires", c.Retires().String()).
		str("allocator", string(c.Allocator)).str("processes", "1 client, 2 router, 3 prefill server, 4 decode server; tid = request number").
		json()
}

// byTime orders events by ts, keeping the order of equal ones. Every ts is
// a multiple of half a slot (slot, mid, a counter at a slot's end), so a
// bucket per half slot sorts them — without the sort package's reflection
// or a generic sort's code in the wasm.
func byTime(evs []event) []event {
	const half = StepMicros / 2
	var n int64
	for _, ev := range evs {
		n = max(n, ev.ts/half+1)
	}
	next := make([]int, n+1) // where the next event of each bucket goes
	for _, ev := range evs {
		next[ev.ts/half+1]++
	}
	for i := int64(1); i <= n; i++ {
		next[i] += next[i-1]
	}
	out := make([]event, len(evs))
	for _, ev := range evs {
		k := ev.ts / half
		out[next[k]] = ev
		next[k]++
	}
	return out
}
