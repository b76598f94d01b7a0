package engine

import (
	"slices"
	"sync"
)

// Preset is a named, documented scenario: a configuration and the operations
// that reproduce one of the postmortem's situations.
type Preset struct {
	Slug        string `json:"slug"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Config      Config `json:"config"`
	Ops         []Op   `json:"ops"`
}

// The article's demo secret.
const DemoSecret = "PROJECT_ZEPHYR_Q4_FORECAST"

// The demo's prompts: A's 120 tokens fill the 8 pages and fit (below
// max_req_input_len 122); B's 200 pass the API (below the 256-token context)
// but not validate_input_length.
const (
	DemoPromptA = 120
	DemoPromptB = 200
)

// GLM-5.3's numbers from the postmortem.
const (
	GLMContextTokens    = 1_048_576
	GLMLaunchPoolTokens = 681_280
	GLMFixedPoolTokens  = 2_040_000
)

// glmWarmTokens is tenant D's prompt in the launch preset: the free pages
// left after A's 4,096, less 7, so that B's 8-page slot finds free_pages short.
const glmWarmTokens = GLMLaunchPoolTokens - 4_096 - 7

// Presets returns the scenarios, in the order the UI lists them. Each call
// returns fresh values: the caller may change them.
func Presets() []Preset {
	out := slices.Clone(presetTable())
	for i := range out {
		out[i].Ops = clone(out[i].Ops)
	}
	return out
}

// presetTable is every preset, built once: the UI names them on every
// render, and building them formats every description and op again. It
// is shared, so it is only read; Presets and PresetBySlug hand out copies.
var presetTable = sync.OnceValue(func() []Preset {
	return append(incidentPresets(), experimentPresets()...)
})

// PresetNames is each preset's slug and name, in the order the UI lists
// them, without copying their ops.
func PresetNames() (slugs, names []string) {
	for _, p := range presetTable() {
		slugs, names = append(slugs, p.Slug), append(names, p.Name)
	}
	return slugs, names
}

// presetIn finds a preset by its slug in ps.
func presetIn(ps []Preset, slug string) (Preset, bool) {
	for _, p := range ps {
		if p.Slug == slug {
			return p, true
		}
	}
	return Preset{}, false
}

// incidentPresets are the scenarios of the postmortem itself, before the
// experiments (presets_experiments.go).
func incidentPresets() []Preset {
	demoOps := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret}),
		SendOp(Request{Tenant: "B", PromptTokens: DemoPromptB, Content: "summarise my notes"}),
	}
	glm := Config{
		ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, PageTokens: 1,
		SlotPages: DefaultSlotPages, Mode: Vulnerable, Allocator: Sorted, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
	}
	glmOps := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: 4_096, Content: DemoSecret}),
		// Earlier traffic warms the pool: it takes every page A left in
		// free_pages, so the next reservation runs merge_and_sort_free.
		SendOp(Request{Tenant: "D", PromptTokens: glmWarmTokens, Content: "long-context batch job"}),
		SendOp(Request{Tenant: "C", PromptTokens: 1_100_000, Content: "too long for anyone"}),
		SendOp(Request{Tenant: "B", PromptTokens: 900_000, Content: "review this codebase"}),
	}
	fixed := glm
	fixed.PoolTokens, fixed.Mode = GLMFixedPoolTokens, Fixed
	demoFixed := DemoConfig()
	demoFixed.Mode = Fixed
	scrub := DemoConfig()
	scrub.ScrubOnFree = true
	abortOne := Config{
		ContextTokens: 32, PoolTokens: 16, PageTokens: 1, SlotPages: DefaultSlotPages,
		Mode: Vulnerable, Allocator: Sorted, Cancel: CancelOneHalf, KVBytesPerToken: DefaultKVBytesTok,
	}
	abortBoth := abortOne
	abortBoth.Cancel = CancelBoth
	abortOps := func() []Op {
		return []Op{
			SendOp(Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillTransfer}),
			SendOp(Request{Tenant: "B", PromptTokens: 8, Content: "quarterly plan"}),
		}
	}
	lateOps := func(o Outcome) []Op {
		return append(abortOps(), SettleOp(1, o), SendOp(Request{Tenant: "C", PromptTokens: 8, Content: "weekly report"}))
	}
	return []Preset{
		{Slug: "demo", Name: "The article's demo",
			Description: "The article's demo: a pool of one 8-page slot. Tenant A's 120-token secret fills it (SGLang's limit here is max_req_input_len = min(256 − 1, 128 − 1) − 5 = 122, so it fits); tenant B's 200-token request passes the API's 256-token context but not validate_input_length, and reads A's seven stale pages back with HTTP 200. The 16-token pages are ours, so that a prompt legal under SGLang's limit fills the slot.",
			Config:      DemoConfig(), Ops: demoOps},
		{Slug: "demo-fixed", Name: "The demo, fixed door",
			Description: "The same two requests through the patched door (SGLang #38704): tenant B gets 400 and nothing is allocated, as the article's fixed engine prints.",
			Config:      demoFixed, Ops: clone(demoOps)},
		{Slug: "glm-launch", Name: "GLM-5.3 at launch",
			Description: "Context 1,048,576 tokens on a 681,280-token pool (the article's numbers). Tenant A's secret, then tenant D's long batch job warms the pool: every page but 7 has been written. Tenant B's 900,000-token prompt fits the context but not the pool; its 8-page slot finds free_pages short, and SGLang's merge_and_sort_free hands it the lowest page ids: A's.",
			Config:      glm, Ops: glmOps},
		{Slug: "glm-remediated", Name: "After remediation",
			Description: "The article's remediation: the pool raised to about 2,040,000 tokens and the patched engine (both parts of SGLang #38704). The same prompts leak nothing; B's 900,000 tokens now fit (max_req_input_len 1,048,570).",
			Config:      fixed, Ops: clone(glmOps)},
		{Slug: "scrub", Name: "Scrub-on-free, vulnerable door",
			Description: "The article's demo with the fix SGLang chose not to pay for: freed pages are zeroed. No foreign content reaches tenant B, yet it still gets a wrong 200 — and every free costs a write per page.",
			Config:      scrub, Ops: clone(demoOps)},
		{Slug: "abort-one-half", Name: "Abort, router cancels one half",
			Description: "Not in the article's demo; SGLang's deferred KV release. Tenant A's client cancels mid-transfer and the router cancels only decode. Decode sends ABORT to prefill and holds A's 8 pages until ABORT_ACK, so B gets other pages; settle the release to free them.",
			Config:      abortOne, Ops: abortOps()},
		{Slug: "abort-both", Name: "Abort, router cancels both halves",
			Description: "The same abort with a router that cancels both halves, as SGLang's guidance after the incident advises: every page is released at once.",
			Config:      abortBoth, Ops: abortOps()},
		{Slug: "late-write", Name: "Deferred release times out: a late write",
			Description: "The second bug class SGLang's advice warns of (watch decode_deferred_kv_release_total{outcome=\"timeout\"}). The router cancels only decode; no ABORT_ACK comes, decode frees A's pages on timeout, and merge_and_sort_free hands them to tenant C. Prefill's transfer, still in flight, lands in C's KV: C's 200 carries tenant A's secret, on a request that fit.",
			Config:      abortOne, Ops: lateOps(OutcomeTimeout)},
		{Slug: "late-write-drained", Name: "Deferred release drained: no late write",
			Description: "The same run with the deferred release drained: prefill finishes its transfer into A's own held pages and answers ABORT_ACK before decode frees them, so C's pages hold only C's KV.",
			Config:      abortOne, Ops: lateOps(OutcomeDrained)},
	}
}

// PresetBySlug finds a preset by its slug.
func PresetBySlug(slug string) (Preset, bool) {
	p, ok := presetIn(presetTable(), slug)
	p.Ops = clone(p.Ops)
	return p, ok
}

func clone(ops []Op) []Op {
	if ops == nil {
		return nil
	}
	out := make([]Op, len(ops))
	for i, op := range ops {
		if op.Send != nil {
			out[i] = SendOp(*op.Send)
		} else if op.Settle != nil {
			out[i] = SettleOp(op.Settle.Request, op.Settle.Outcome)
		}
	}
	return out
}
