package engine

import "fmt"

// CancelPolicy is what the router does when a client cancels mid-flight.
type CancelPolicy string

const (
	// CancelBoth cancels the prefill and the decode half of the pair at once.
	CancelBoth CancelPolicy = "both"
	// CancelOneHalf cancels only the half that saw the abort (decode, which
	// streams to the client); the prefill half keeps running.
	CancelOneHalf CancelPolicy = "one"
)

// Bounds of a Config. They are wide enough for the incident at real scale
// (context 1,048,576 tokens, a 2,040,000-token prefill pool at page size 1)
// and small enough that a hostile value cannot exhaust memory: the two pools
// together never have more than MaxPoolPages pages.
const (
	MaxContextTokens  = 16_777_216
	MaxPoolTokens     = 4_194_304
	MaxPageTokens     = 65_536
	MaxKVBytesPerTok  = 1 << 20
	MaxPoolPages      = MaxPoolTokens
	DefaultKVBytesTok = 70_272
	// DefaultReservedDecodeTokens is SGLang's --num-reserved-decode-tokens
	// (server_args.py): what decode's DecodePreallocQueue keeps in hand
	// for each active request's next decode steps.
	DefaultReservedDecodeTokens = 512
)

// Config describes the simulated deployment.
type Config struct {
	// ContextTokens is the advertised context window; longer prompts get a
	// 400 from the API before they reach the engine.
	ContextTokens int `json:"context"`
	// PoolTokens is the prefill server's KV pool (its max_total_num_tokens):
	// the article's 681,280.
	PoolTokens int `json:"pool"`
	// DecodePoolTokens is the decode server's KV pool. Decode servers usually
	// have more KV capacity than prefill servers; when decode's limit admits
	// a prompt that prefill's rejects, the leak's window is open.
	DecodePoolTokens int `json:"dpool"`
	// PageTokens is the page size of both pools: tokens per KV page.
	PageTokens int `json:"page"`
	// ReservedDecodeTokens is the decode server's
	// --num-reserved-decode-tokens: pop_preallocated preallocates a
	// request only while fill_len plus this many tokens, and this many for
	// every request already active, fit decode's free pages.
	ReservedDecodeTokens int `json:"reserve"`
	// Mode is the admission door.
	Mode Mode `json:"mode"`
	// Allocator is the free-list policy; empty means Sorted, SGLang's PD
	// default.
	Allocator Allocator `json:"alloc,omitempty"`
	// ScrubOnFree zeroes a page when it is freed, at one write per page.
	ScrubOnFree bool `json:"scrub"`
	// Cancel is the router's policy on a client abort.
	Cancel CancelPolicy `json:"cancel"`
	// Door is what the admission door retires: DoorFromMode (what Mode
	// does), "none", "all" or states joined by dots (see RetireSet).
	Door string `json:"door,omitempty"`
	// CheckWriter makes decode check the last writer of every page it
	// attends over against the request: one metadata read per page.
	CheckWriter bool `json:"wcheck,omitempty"`
	// Gateway is the AI gateway in front of the engine; empty is off.
	Gateway GatewayMode `json:"gw,omitempty"`
	// KVBytesPerToken sizes a page in bytes, to price scrubbing. The default
	// (70,272 = 61 layers × 576 dims × 2 bytes) is a DeepSeek-V3-class MLA
	// figure: an assumption, since the postmortem gives none.
	KVBytesPerToken int `json:"kvBytes"`
}

// DemoConfig is the article's demo on two servers: prefill's pool holds 8
// pages of 16 tokens (max_req_input_len = min(256 − 1, 128 − 1) − 5 = 122),
// decode's 10 (min(255, 159) − 5 = 154). The page size, decode's pool and
// its 32-token reserve are ours — the article gives none, and a 10-page
// pool cannot hold SGLang's default reserve of 512: with them B's
// max_new_tokens clamps to 15 (init_req_max_new_tokens), B fits decode's
// prealloc budget (125 + 32 ≤ 160) and alloc_extend hands it A's pages.
func DemoConfig() Config {
	return Config{
		ContextTokens:        256,
		PoolTokens:           128,
		DecodePoolTokens:     160,
		PageTokens:           16,
		ReservedDecodeTokens: 32,
		Mode:                 Vulnerable,
		Allocator:            Sorted,
		Cancel:               CancelBoth,
		KVBytesPerToken:      DefaultKVBytesTok,
	}
}

// PoolTokensOf is a server's configured pool.
func (c Config) PoolTokensOf(s Server) int {
	if s == ServerPrefill {
		return c.PoolTokens
	}
	return c.DecodePoolTokens
}

// PagesOf is how many whole pages a server's pool holds.
func (c Config) PagesOf(s Server) int { return c.PoolTokensOf(s) / c.PageTokens }

// LimitsOf is what a server's validate_input_length derives from its pool.
func (c Config) LimitsOf(s Server) Limits {
	return NewLimits(c.ContextTokens, c.PoolTokensOf(s), c.PageTokens)
}

// Window is the prompt lengths prefill rejects and decode admits.
func (c Config) Window() Window {
	return LeakWindow(c.LimitsOf(ServerPrefill), c.LimitsOf(ServerDecode))
}

// ReservedPages is how many pages decode's DecodePreallocQueue reserves for
// a prompt of n tokens: fill_len = n when decode's intake admits it, the one
// placeholder token when it rejects it.
func (c Config) ReservedPages(n int) int {
	if c.LimitsOf(ServerDecode).Rejects(n) {
		n = 1
	}
	return (n + c.PageTokens - 1) / c.PageTokens
}

// ConfigError names the field that is out of range and what is allowed.
type ConfigError struct {
	Field string // the Config field's JSON name, e.g. "pool"
	Value string
	Rule  string // the allowed range or values, in words
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s %s: %s", fieldLabel[e.Field], e.Value, e.Rule)
}

var fieldLabel = map[string]string{
	"context": "context length", "pool": "prefill pool size", "dpool": "decode pool size", "page": "page size",
	"mode": "admission mode", "cancel": "cancel policy",
	"kvBytes": "KV bytes per token", "alloc": "allocator",
	"door": "what the door retires", "gw": "AI gateway",
	"reserve": "decode's reserved tokens",
}

func rangeErr(field string, v, lo, hi int, unit string) error {
	return &ConfigError{Field: field, Value: th(v), Rule: fmt.Sprintf("must be between %s and %s %s", th(lo), th(hi), unit)}
}

// Validate reports the first field that is out of range, as a *ConfigError.
func (c Config) Validate() error {
	checks := []struct {
		field     string
		v, lo, hi int
		unit      string
	}{
		{"context", c.ContextTokens, 1, MaxContextTokens, "tokens"},
		{"pool", c.PoolTokens, 1, MaxPoolTokens, "tokens"},
		{"dpool", c.DecodePoolTokens, 1, MaxPoolTokens, "tokens"},
		{"page", c.PageTokens, 1, min(MaxPageTokens, max(min(c.PoolTokens, c.DecodePoolTokens), 1)), "tokens (at most the smaller pool)"},
		{"kvBytes", c.KVBytesPerToken, 1, MaxKVBytesPerTok, "bytes"},
		{"reserve", c.ReservedDecodeTokens, 0, MaxPoolTokens, "tokens"},
	}
	for _, k := range checks {
		if k.v < k.lo || k.v > k.hi {
			return rangeErr(k.field, k.v, k.lo, k.hi, k.unit)
		}
	}
	if pages := c.PagesOf(ServerPrefill) + c.PagesOf(ServerDecode); pages > MaxPoolPages {
		return &ConfigError{Field: "dpool", Value: th(c.DecodePoolTokens), Rule: fmt.Sprintf("the two pools hold %s pages together; at most %s", th(pages), th(MaxPoolPages))}
	}
	if !validMode(c.Mode) {
		return &ConfigError{Field: "mode", Value: fmt.Sprintf("%q", string(c.Mode)), Rule: `must be "vulnerable", "fixed", "retire-only", "length-check-only" or "upstream"`}
	}
	switch c.Allocator {
	case "", Sorted, LIFO, FIFO:
	default:
		return &ConfigError{Field: "alloc", Value: fmt.Sprintf("%q", string(c.Allocator)), Rule: `must be "sorted", "lifo" or "fifo"`}
	}
	if c.Door != DoorFromMode {
		if _, err := ParseRetireSet(c.Door); err != nil {
			return &ConfigError{Field: "door", Value: fmt.Sprintf("%q", c.Door), Rule: `must be "none", "all" or states among rejected, errored, aborted and cancelled joined by dots`}
		}
	}
	if !validGateway(c.Gateway) {
		return &ConfigError{Field: "gw", Value: fmt.Sprintf("%q", string(c.Gateway)), Rule: `must be "off", "alert" or "block"`}
	}
	if c.Cancel != CancelBoth && c.Cancel != CancelOneHalf {
		return &ConfigError{Field: "cancel", Value: fmt.Sprintf("%q", string(c.Cancel)), Rule: `must be "both" or "one"`}
	}
	return nil
}
