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
// (context 1,048,576 tokens, a 2,040,000-token pool at page size 1) and small
// enough that a hostile value cannot exhaust memory: the pool never has more
// than MaxPoolPages pages.
const (
	MaxContextTokens  = 16_777_216
	MaxPoolTokens     = 4_194_304
	MaxPageTokens     = 65_536
	MaxSlotPages      = 1_024
	MaxKVBytesPerTok  = 1 << 20
	MaxPoolPages      = MaxPoolTokens
	DefaultSlotPages  = 8
	DefaultKVBytesTok = 70_272
)

// Config describes the simulated deployment.
type Config struct {
	// ContextTokens is the advertised context window; longer prompts get a
	// 400 from the API before they reach the engine.
	ContextTokens int `json:"context"`
	// PoolTokens is the KV pool's capacity (max_total_num_tokens).
	PoolTokens int `json:"pool"`
	// PageTokens is the page size: tokens per KV page.
	PageTokens int `json:"page"`
	// SlotPages is how many pages decode reserves for a request slot.
	SlotPages int `json:"slot"`
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

// DemoConfig is the article's demo: a pool of one 8-page slot and the
// vulnerable door. The pages hold 16 tokens each so that, under SGLang's
// limit (max_req_input_len = min(256 − 1, 128 − 1) − 5 = 122), a prompt long
// enough to fill all 8 pages still fits.
func DemoConfig() Config {
	return Config{
		ContextTokens:   256,
		PoolTokens:      128,
		PageTokens:      16,
		SlotPages:       DefaultSlotPages,
		Mode:            Vulnerable,
		Allocator:       Sorted,
		Cancel:          CancelBoth,
		KVBytesPerToken: DefaultKVBytesTok,
	}
}

// PoolPages is how many whole pages the pool holds.
func (c Config) PoolPages() int { return c.PoolTokens / c.PageTokens }

// UsableTokens is how many tokens the pool can hold: PoolTokens rounded down
// to whole pages, as SGLang aligns max_total_num_tokens to the page size.
// Intake's "fits the KV pool" and the capacity check use it.
func (c Config) UsableTokens() int { return c.PoolPages() * c.PageTokens }

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
	"context": "context length", "pool": "pool size", "page": "page size",
	"slot": "pages per slot", "mode": "admission mode", "cancel": "cancel policy",
	"kvBytes": "KV bytes per token", "alloc": "allocator",
	"door": "what the door retires", "gw": "AI gateway",
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
		{"page", c.PageTokens, 1, min(MaxPageTokens, max(c.PoolTokens, 1)), "tokens (at most the pool size)"},
		{"slot", c.SlotPages, 1, min(MaxSlotPages, max(c.PoolTokens/max(c.PageTokens, 1), 1)), "pages (at most the pages in the pool)"},
		{"kvBytes", c.KVBytesPerToken, 1, MaxKVBytesPerTok, "bytes"},
	}
	for _, k := range checks {
		if k.v < k.lo || k.v > k.hi {
			return rangeErr(k.field, k.v, k.lo, k.hi, k.unit)
		}
	}
	if !validMode(c.Mode) {
		return &ConfigError{Field: "mode", Value: fmt.Sprintf("%q", string(c.Mode)), Rule: `must be "vulnerable", "fixed", "retire-only" or "length-check-only"`}
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
