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
	// Waiting is how many requests wait for pages now.
	Waiting int `json:"waiting"`

	// Prefill and Decode are the two servers' pools now.
	Prefill        PoolMetrics `json:"prefill"`
	Decode         PoolMetrics `json:"decode"`
	PagesLingering int         `json:"pagesLingering"` // decode pages held for a deferred release

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

// PoolMetrics counts one pool's pages by state.
type PoolMetrics struct {
	Total     int `json:"total"`
	Allocated int `json:"allocated"`
	Free      int `json:"free"`   // free_pages and release_pages
	Staged    int `json:"staged"` // release_pages: freed, not yet merged back (sorted)
	Stale     int `json:"stale"`  // free, but still holding some request's KV
}

func (p *pool) metrics() PoolMetrics {
	return PoolMetrics{Total: p.size(), Allocated: p.allocated, Free: p.freeCount(), Staged: p.free.nStage, Stale: p.stale}
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
		Waiting: len(e.queue),
		Prefill: e.prefill().metrics(), Decode: e.decode().metrics(), PagesLingering: c.lingeringPages,
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
