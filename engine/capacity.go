package engine

import "fmt"

// Capacity answers the article's second question from the running engine:
// is the advertised context window backed by the KV pool? It compares the
// context with max_req_input_len as the engine derives it, not with a spec.
type Capacity struct {
	ContextTokens int `json:"context"`
	// PoolTokens is what the pool can hold: Config.UsableTokens.
	PoolTokens int `json:"pool"`
	// MaxReqInputLen is Config.MaxReqInputLen: prompts of this many tokens
	// or more take the placeholder path.
	MaxReqInputLen int `json:"maxReqInputLen"`
	// Backed is true when the limit comes from the context, not the pool.
	// Even then SGLang keeps the 6 tokens below the context in hand.
	Backed bool `json:"backed"`
	// ShortBy is how many tokens of context the pool cannot hold (0 when backed).
	ShortBy int `json:"shortBy"`
	// Ratio is pool ÷ context: 0.65 at GLM-5.3's launch, 1.95 after the fix.
	Ratio float64 `json:"ratio"`
}

// Capacity checks the configuration's pool against its context window.
func (c Config) Capacity() Capacity {
	pool := c.UsableTokens()
	r := Capacity{ContextTokens: c.ContextTokens, PoolTokens: pool, MaxReqInputLen: c.MaxReqInputLen(), Backed: pool >= c.ContextTokens}
	if !r.Backed {
		r.ShortBy = c.ContextTokens - pool
	}
	if c.ContextTokens > 0 {
		r.Ratio = float64(pool) / float64(c.ContextTokens)
	}
	return r
}

// String is the check in one line, e.g. "advertised 1,048,576 tokens, pool
// 681,280 — short by 367,296: …".
func (r Capacity) String() string {
	head := fmt.Sprintf("advertised %s tokens, pool %s", th(r.ContextTokens), th(r.PoolTokens))
	if !r.Backed {
		return fmt.Sprintf("%s — short by %s: the running engine's max_req_input_len is %s, so prompts of %s to %s tokens pass the API and take the placeholder path",
			head, th(r.ShortBy), th(r.MaxReqInputLen), th(max(r.MaxReqInputLen, 1)), th(r.ContextTokens-1))
	}
	return fmt.Sprintf("%s — backed, %.2f× the context: the running engine's max_req_input_len is %s (context − 6)", head, r.Ratio, th(r.MaxReqInputLen))
}
