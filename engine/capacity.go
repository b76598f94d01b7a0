package engine

import "fmt"

// Capacity answers the article's second question from the running engine:
// is the advertised context window backed by each server's KV pool? It
// compares the context with max_req_input_len as each server derives it,
// not with a spec, and names the window between the two servers.
type Capacity struct {
	ContextTokens int            `json:"context"`
	Prefill       ServerCapacity `json:"prefill"`
	Decode        ServerCapacity `json:"decode"`
	// Window is the prompt lengths prefill rejects and decode admits: the
	// ones that leak under the vulnerable door.
	Window Window `json:"window"`
}

// ServerCapacity is one server's pool against the advertised context.
type ServerCapacity struct {
	// PoolTokens is max_total_num_tokens: the pool in whole pages' tokens.
	PoolTokens     int `json:"pool"`
	MaxReqLen      int `json:"maxReqLen"`
	MaxReqInputLen int `json:"maxReqInputLen"`
	// Backed is true when the pool holds the whole context. Even then
	// SGLang keeps the 6 tokens below the context in hand.
	Backed bool `json:"backed"`
	// ShortBy is the one "short by" figure: the context's tokens the pool
	// cannot hold, context − max_total_num_tokens (0 when backed). Past
	// SGLang's fixed 6-token headroom, it is also how many prompt lengths
	// the API passes and this server's validate_input_length rejects.
	ShortBy int `json:"shortBy"`
	// Ratio is pool ÷ context: 0.65 for GLM-5.3's prefill at launch.
	Ratio float64 `json:"ratio"`
}

// Capacity checks both servers' pools against the context window.
func (c Config) Capacity() Capacity {
	return Capacity{ContextTokens: c.ContextTokens, Prefill: c.serverCapacity(ServerPrefill), Decode: c.serverCapacity(ServerDecode), Window: c.Window()}
}

func (c Config) serverCapacity(s Server) ServerCapacity {
	l := c.LimitsOf(s)
	r := ServerCapacity{PoolTokens: l.PoolTokens, MaxReqLen: l.MaxReqLen(), MaxReqInputLen: l.MaxReqInputLen(), Backed: l.PoolTokens >= c.ContextTokens}
	if !r.Backed {
		r.ShortBy = c.ContextTokens - l.PoolTokens
	}
	if c.ContextTokens > 0 {
		r.Ratio = float64(l.PoolTokens) / float64(c.ContextTokens)
	}
	return r
}

// String is one server's check in one line, e.g. "prefill pool 681,280 —
// short by 367,296 (max_req_input_len 681,274)".
func (r ServerCapacity) String() string {
	if !r.Backed {
		return fmt.Sprintf("pool %s — short by %s (max_req_input_len %s)", th(r.PoolTokens), th(r.ShortBy), th(r.MaxReqInputLen))
	}
	return fmt.Sprintf("pool %s — backed, %.2f× the context (max_req_input_len %s, context − 6)", th(r.PoolTokens), r.Ratio, th(r.MaxReqInputLen))
}

// String is the check in one line: the context, each server, the window.
func (r Capacity) String() string {
	return fmt.Sprintf("advertised %s tokens; prefill %s; decode %s; %s",
		th(r.ContextTokens), r.Prefill, r.Decode, r.WindowText())
}

// WindowText says what the window is, in words.
func (r Capacity) WindowText() string {
	if !r.Window.Open() {
		return "the window is closed: prefill admits every prompt decode admits"
	}
	return fmt.Sprintf("the window is open: prompts of %s pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token", r.Window)
}
