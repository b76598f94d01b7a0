package engine

// Event is one transition in the ordered log.
type Event struct {
	Step    int    `json:"step"` // 1-based position in the log
	Request int    `json:"request"`
	Tenant  string `json:"tenant"`
	Stage   Stage  `json:"stage"`
	Half    Half   `json:"half"`
	// Pages are the pages the event touched (allocated, wrote, read or
	// freed), in Pool: the prefill or the decode server's.
	Pages Pages  `json:"pages,omitempty"`
	Pool  Server `json:"pool,omitempty"`
	// Text explains the event in one plain line.
	Text string `json:"text"`
	// Poll is the KV transfer's KVPoll state, on the events that reach one.
	Poll KVPoll `json:"poll,omitempty"`
	// Victim is the request whose pages a late write landed in (the event's
	// Request is the writer): the second bug class.
	Victim int `json:"victim,omitempty"`

	muts []mutation // how the event changed the pool, to rebuild any step
}
