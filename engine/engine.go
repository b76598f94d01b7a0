package engine

import "fmt"

// Engine is one simulated deployment. It is not safe for concurrent use.
type Engine struct {
	cfg Config
	// pools are the two servers' KV pools, by serverIndex.
	pools     [2]*pool
	reqs      []*record // request n is reqs[n-1]
	tenants   []string  // in order of first appearance
	reqTenant []uint8   // tenant index of request n at n-1, for fast page scans
	log       Log
	responses chunks[Response] // see respChunk
	m         counters
	// late are transfers still in flight after a deferred-release timeout.
	late []lateWrite
	// queue holds the requests waiting for pages, oldest first: in
	// DecodePreallocQueue, or for prefill's pool in its waiting queue.
	queue []*record
	// prints are the AI gateway's fingerprints, per tenant index.
	prints []prints
	// scan is each pool at the step ViewAt last built it for.
	scan [2]scanTable
	// texts holds recent texts of the log and of the pages, so that what
	// many requests repeat is kept once, not once per request (see share).
	texts map[string]string
	// budgets are pop_preallocated's checks, by decode.prealloc event (BudgetAt).
	budgets []stepText
}

// record is the engine's own state of one request.
type record struct {
	id      int32
	tenant  int // index into Engine.tenants
	req     Request
	text    string // what its pages hold
	content string // the same without the tenant label: what the gateway sees echoed
	// text and content are what decode's reservation was written with:
	// prefill's placeholder when prefill rejected the prompt.
	reserved Pages // decode's reservation, in order
	released bool
	// prefillKV is the prefill server's own KV of the prompt, from its
	// forward pass until its half ends.
	prefillKV Pages
	linger    *linger
	// deferStep is the log step at which decode deferred the release of
	// its reservation (0: it never did); it lingers from then until freed.
	deferStep int
	resp      int // index into Engine.responses
	// waiting is the flight parked in DecodePreallocQueue, if any.
	waiting *flight
}

// linger is a request whose decode half deferred the release of its pages
// because the prefill half, never cancelled, may still write into them.
type linger struct {
	pendingWrite  Pages // pages prefill will still write before it acks
	pendingTokens int   // the positions of them it writes
}

// New returns an engine with an empty pool, or a *ConfigError.
func New(cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	e := &Engine{cfg: cfg}
	for _, s := range Servers {
		i := indexOf(s)
		e.pools[i] = newPool(i, cfg.PagesOf(s), cfg.PageTokens, cfg.Allocator)
	}
	return e, nil
}

// decode and prefill are the two servers' pools.
func (e *Engine) decode() *pool  { return e.pools[decodeIndex] }
func (e *Engine) prefill() *pool { return e.pools[prefillIndex] }

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Log is the log as it is now, oldest first.
func (e *Engine) Log() Log { return e.log }

// respChunk is how many responses one block holds (about 150 KB; see
// chunks).
const respChunk = 512

// response is the response to request i+1, in place.
func (e *Engine) response(i int) *Response { return e.responses.at(i, respChunk) }

// Responses returns a copy of every response, oldest first: for an
// export or a test; Response reads one.
func (e *Engine) Responses() []Response {
	return e.responses.copyTo(make([]Response, 0, e.responses.len), e.responses.len, respChunk)
}

// Response returns the response to request id, if it was sent.
func (e *Engine) Response(id int) (Response, bool) {
	if id < 1 || id > e.responses.len {
		return Response{}, false
	}
	return *e.response(id - 1), true
}

// LastResponse returns the newest response, if any.
func (e *Engine) LastResponse() (Response, bool) { return e.Response(e.responses.len) }

// Tenants lists the tenants seen so far, in order of first appearance.
func (e *Engine) Tenants() []string { return e.tenants }

// TenantOf returns the tenant of request id ("" when there is none).
func (e *Engine) TenantOf(id int) string {
	if id < 1 || id > len(e.reqs) {
		return ""
	}
	return e.tenants[e.reqs[id-1].tenant]
}

// sharedTexts bounds the texts share remembers: enough for every sentence
// a run of similar requests repeats, few enough to cost little when each
// text is new (it then forgets them all and starts again).
const sharedTexts = 512

// share returns an equal text the engine already holds, if a recent event
// or request had the same, else text itself. A session's requests mostly repeat
// themselves, and the log is what grows with them: about half of its
// bytes are texts, and without sharing, each repetition is a new copy.
func (e *Engine) share(text string) string {
	if t, ok := e.texts[text]; ok {
		return t
	}
	if e.texts == nil {
		e.texts = make(map[string]string, sharedTexts)
	} else if len(e.texts) >= sharedTexts {
		clear(e.texts)
	}
	e.texts[text] = text
	return text
}

func (e *Engine) tenantIndex(name string) (int, error) {
	for i, t := range e.tenants {
		if t == name {
			return i, nil
		}
	}
	if len(e.tenants) >= MaxTenants {
		return 0, &RequestError{"tenant", fmt.Sprintf("at most %d tenants", MaxTenants)}
	}
	e.tenants = append(e.tenants, name)
	return len(e.tenants) - 1, nil
}

// emit appends an event to the log with the mutations that pool calls
// returned for it, so that Snapshot replays exactly what the run did.
// The returned event is the one in the log, for the caller to set Poll or Victim.
func (e *Engine) emit(r *record, stage Stage, half Half, pages Pages, text string, muts ...mutation) *Event {
	ev := Event{Step: e.log.Len() + 1, Stage: stage, Half: half, Pages: pages, Text: e.share(text), muts: muts}
	switch {
	case len(muts) > 0:
		ev.Pool = Servers[muts[0].server]
	case len(pages) > 0:
		ev.Pool = ServerDecode
	}
	if r != nil {
		ev.Request = int(r.id)
		ev.Tenant = e.tenants[r.tenant]
	}
	return e.log.add(ev)
}
