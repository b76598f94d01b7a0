package engine

import "fmt"

// Capacity answers the article's second question: is the advertised context
// window backed by the KV pool?
type Capacity struct {
	ContextTokens int `json:"context"`
	// PoolTokens is what the pool can hold: Config.UsableTokens.
	PoolTokens int  `json:"pool"`
	Backed     bool `json:"backed"`
	// ShortBy is how many tokens of context the pool cannot hold (0 when backed).
	ShortBy int `json:"shortBy"`
	// Ratio is pool ÷ context: 0.65 at GLM-5.3's launch, 1.95 after the fix.
	Ratio float64 `json:"ratio"`
}

// Capacity checks the configuration's pool against its context window.
func (c Config) Capacity() Capacity {
	pool := c.UsableTokens()
	r := Capacity{ContextTokens: c.ContextTokens, PoolTokens: pool, Backed: pool >= c.ContextTokens}
	if !r.Backed {
		r.ShortBy = c.ContextTokens - pool
	}
	if c.ContextTokens > 0 {
		r.Ratio = float64(pool) / float64(c.ContextTokens)
	}
	return r
}

// String is the check in one line, e.g. "advertised 1,048,576 tokens, pool
// 681,280 — short by 367,296".
func (r Capacity) String() string {
	head := fmt.Sprintf("advertised %s tokens, pool %s", th(r.ContextTokens), th(r.PoolTokens))
	if !r.Backed {
		return fmt.Sprintf("%s — short by %s", head, th(r.ShortBy))
	}
	return fmt.Sprintf("%s — backed, %.2f× the context", head, r.Ratio)
}
