package engine

// Metrics are the engine's counters, named after what an operator of the
// real engine would watch.
type Metrics struct {
	Requests        int `json:"requests"`
	Responses       int `json:"responses"` // answered with a status (not cancelled, not waiting)
	LeakedResponses int `json:"leakedResponses"`
	LeakedPages     int `json:"leakedPages"`
	WrongStatus     int `json:"wrongStatus"` // 200s for requests intake had rejected

	Finished  int `json:"finished"`
	Rejected  int `json:"rejected"`
	Aborted   int `json:"aborted"` // by the engine after admission (the length check)
	Errored   int `json:"errored"`
	Cancelled int `json:"cancelled"` // by the client
	// Waiting is how many requests wait in DecodePreallocQueue now.
	Waiting int `json:"waiting"`

	PagesTotal     int `json:"pagesTotal"`
	PagesAllocated int `json:"pagesAllocated"`
	PagesFree      int `json:"pagesFree"`   // free_pages and release_pages
	PagesStaged    int `json:"pagesStaged"` // release_pages: freed, not yet merged back (sorted)
	PagesStale     int `json:"pagesStale"`  // free, but still holding some request's KV
	PagesLingering int `json:"pagesLingering"`

	ScrubWrites int   `json:"scrubWrites"`
	ScrubBytes  int64 `json:"scrubBytes"`

	// DeferredRelease is sglang:decode_deferred_kv_release_total{outcome}.
	DeferredRelease map[Outcome]int `json:"deferredRelease"`
	// LateWrites counts transfers that landed after a deferred-release
	// timeout had freed their pages.
	LateWrites int `json:"lateWrites"`

	// What the door's unchecked states and the defences cost.
	PagesUnretired int `json:"pagesUnretired"` // held by aborted requests nobody retired
	GhostPages     int `json:"ghostPages"`     // reserved for clients that had gone
	WriterChecks   int `json:"writerChecks"`   // decode's last-writer metadata reads
	GatewayAlerts  int `json:"gatewayAlerts"`
	GatewayBlocks  int `json:"gatewayBlocks"`
}

// counters are kept as events happen, so Metrics costs nothing per page.
type counters struct {
	requests, responses, leakedResponses, leakedPages, wrongStatus int
	byState                                                        [len(states)]int
	lingeringPages, scrubWrites, lateWrites                        int
	scrubBytes                                                     int64
	deferred                                                       [3]int
	unretiredPages, ghostPages, writerChecks                       int
	gatewayAlerts, gatewayBlocks                                   int
}

// states are the terminal states, in Metrics order.
var states = [5]State{StateFinished, StateRejected, StateAborted, StateErrored, StateCancelled}

func outcomeIndex(o Outcome) int {
	for i, x := range Outcomes {
		if x == o {
			return i
		}
	}
	return 0
}

// record counts a request that reached its terminal state.
func (c *counters) record(r Response) {
	if r.State != StateCancelled {
		c.responses++
	}
	if r.Leaked() && r.State != StateCancelled { // nobody received a cancelled one
		c.leakedResponses++
		c.leakedPages += r.LeakedPages.Len()
	}
	if r.WrongStatus {
		c.wrongStatus++
	}
	for i, s := range states {
		if s == r.State {
			c.byState[i]++
		}
	}
}

// Metrics returns the counters now.
func (e *Engine) Metrics() Metrics {
	c := e.m
	m := Metrics{
		Requests: c.requests, Responses: c.responses, LeakedResponses: c.leakedResponses,
		LeakedPages: c.leakedPages, WrongStatus: c.wrongStatus,
		Finished: c.byState[0], Rejected: c.byState[1], Aborted: c.byState[2], Errored: c.byState[3], Cancelled: c.byState[4],
		Waiting:    len(e.preallocQueue),
		PagesTotal: e.pool.size(), PagesAllocated: e.pool.allocated, PagesFree: e.pool.freeCount(),
		PagesStaged: e.pool.free.nStage, PagesStale: e.pool.stale, PagesLingering: c.lingeringPages,
		ScrubWrites: c.scrubWrites, ScrubBytes: c.scrubBytes,
		DeferredRelease: map[Outcome]int{}, LateWrites: c.lateWrites,
		PagesUnretired: c.unretiredPages, GhostPages: c.ghostPages, WriterChecks: c.writerChecks,
		GatewayAlerts: c.gatewayAlerts, GatewayBlocks: c.gatewayBlocks,
	}
	for i, o := range Outcomes {
		m.DeferredRelease[o] = c.deferred[i]
	}
	return m
}
