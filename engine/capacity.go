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
	// Read is the part of Window that decode also preallocates on an
	// idle pool and decodes (ReadWindow): the prompts that leak.
	Read Window `json:"read"`
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
	return Capacity{ContextTokens: c.ContextTokens, Prefill: c.serverCapacity(ServerPrefill), Decode: c.serverCapacity(ServerDecode), Window: c.Window(), Read: c.ReadWindow()}
}

// ReadWindow is the prompts of Window that decode, idle, both
// preallocates (its budget fits, the reserve with it) and decodes
// (init_req_max_new_tokens leaves it 2 tokens or more, with the client's
// max_new_tokens unsent): the ones decode attends over. Both rules only
// tighten as prompts grow, so it is Window cut at its first prompt that
// fails them.
func (c Config) ReadWindow() Window {
	w := c.Window()
	if !w.Open() || c.PageTokens < 1 {
		return w
	}
	reads := func(n int) bool {
		v := c.Admit(n, 0)
		return v.MaxNew >= 2 && c.emptyBudget().Check(v.Fill, v.MaxNew, c.ReservedDecodeTokens, c.PageTokens).Fits()
	}
	lo, hi := w.First, w.Last+1 // the first prompt that is not read is in (lo, hi]
	if !reads(lo) {
		return Window{First: w.First, Last: w.First - 1}
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if reads(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Window{First: w.First, Last: lo}
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
	text := fmt.Sprintf("the window is open: prompts of %s pass the API and decode's intake, while prefill's rejects them and transfers one placeholder token", r.Window)
	switch {
	case r.Read == r.Window:
		return text
	case !r.Read.Open():
		return text + "; yet decode attends over none of them: its prealloc budget or init_req_max_new_tokens stops each one"
	}
	return text + fmt.Sprintf("; decode attends over those of %s — longer ones never fit its prealloc budget or are left no token to decode", r.Read)
}
