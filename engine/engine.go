package engine

import "fmt"

// Engine is one simulated deployment. It is not safe for concurrent use.
type Engine struct {
	cfg       Config
	pool      *pool
	reqs      []*record // request n is reqs[n-1]
	tenants   []string  // in order of first appearance
	reqTenant []uint8   // tenant index of request n at n-1, for fast page scans
	events    []Event
	responses []Response
	m         counters
	// legacyLimit replays a run under the prompt limit it was made with
	// before SGLang's rule (see LimitChanges).
	legacyLimit bool
	// late are transfers still in flight after a deferred-release timeout.
	late []lateWrite
	// preallocQueue holds the requests waiting in DecodePreallocQueue, oldest first.
	preallocQueue []*record
	// prints are the AI gateway's fingerprints, per tenant index.
	prints []prints
	// scan is the pool at the step SnapshotAt last built.
	scan scanTable
}

// record is the engine's own state of one request.
type record struct {
	id       int32
	tenant   int // index into Engine.tenants
	req      Request
	text     string // what its pages hold
	content  string // the same without the tenant label: what the gateway sees echoed
	slot     Pages  // decode's reservation, in slot order
	released bool
	linger   *linger
	// deferStep is the log step at which decode deferred the release of
	// the slot (0: it never did); the slot lingers from then until freed.
	deferStep int
	resp      int // index into Engine.responses
	// waiting is the flight parked in DecodePreallocQueue, if any.
	waiting *flight
}

// linger is a request whose decode half deferred the release of its pages
// because the prefill half, never cancelled, may still write into them.
type linger struct {
	pendingWrite Pages // pages prefill will still write before it acks
}

// New returns an engine with an empty pool, or a *ConfigError.
func New(cfg Config) (*Engine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Engine{cfg: cfg, pool: newPool(cfg.PoolPages(), cfg.Allocator)}, nil
}

// Config returns the engine's configuration.
func (e *Engine) Config() Config { return e.cfg }

// Events returns the log, oldest first. The slice must not be modified.
func (e *Engine) Events() []Event { return e.events }

// Responses returns every response, oldest first. Do not modify it.
func (e *Engine) Responses() []Response { return e.responses }

// LastResponse returns the newest response, if any.
func (e *Engine) LastResponse() (Response, bool) {
	if len(e.responses) == 0 {
		return Response{}, false
	}
	return e.responses[len(e.responses)-1], true
}

// Tenants lists the tenants seen so far, in order of first appearance.
func (e *Engine) Tenants() []string { return e.tenants }

// TenantOf returns the tenant of request id ("" when there is none).
func (e *Engine) TenantOf(id int) string {
	if id < 1 || id > len(e.reqs) {
		return ""
	}
	return e.tenants[e.reqs[id-1].tenant]
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
// The returned event is valid until the next emit, to set Poll or Victim.
func (e *Engine) emit(r *record, stage Stage, half Half, pages Pages, text string, muts ...mutation) *Event {
	ev := Event{Step: len(e.events) + 1, Stage: stage, Half: half, Pages: pages, Text: text, muts: muts}
	if r != nil {
		ev.Request = int(r.id)
		ev.Tenant = e.tenants[r.tenant]
	}
	e.events = append(e.events, ev)
	return &e.events[len(e.events)-1]
}
