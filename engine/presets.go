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

// The demo's prompts: A's 120 tokens fill 8 pages and fit both servers
// (below max_req_input_len 122 and 138); B's 125 pass the API (below the
// 256-token context) and decode's intake, but not prefill's, so decode
// reserves 8 pages for them while prefill sends one placeholder token.
const (
	DemoPromptA = 120
	DemoPromptB = 125
)

// GLM-5.3's numbers from the postmortem, and the decode pools it does not
// give: ours. At launch decode's is sized to the advertised context; after
// remediation, to the context plus SGLang's default reserve, so that the
// longest prompt the context admits fits decode's prealloc budget.
const (
	GLMContextTokens         = 1_048_576
	GLMLaunchPoolTokens      = 681_280
	GLMFixedPoolTokens       = 2_040_000
	GLMDecodePoolTokens      = GLMContextTokens
	GLMFixedDecodePoolTokens = GLMContextTokens + DefaultReservedDecodeTokens
)

// glmWarmTokens is tenant D's prompt in the launch preset: the prefill
// pages left after A's 4,096, less 7, the longest that fits prefill. After
// it, decode's free_pages is short of B's 900,000-page reservation, so
// merge_and_sort_free hands B the lowest page ids: A's and D's.
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
		ContextTokens: GLMContextTokens, PoolTokens: GLMLaunchPoolTokens, DecodePoolTokens: GLMDecodePoolTokens, PageTokens: 1,
		ReservedDecodeTokens: DefaultReservedDecodeTokens, Mode: Vulnerable, Allocator: Sorted, Cancel: CancelBoth, KVBytesPerToken: DefaultKVBytesTok,
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
	fixed.PoolTokens, fixed.DecodePoolTokens, fixed.Mode = GLMFixedPoolTokens, GLMFixedDecodePoolTokens, Fixed
	demoFixed := DemoConfig()
	demoFixed.Mode = Fixed
	demoUpstream := DemoConfig()
	demoUpstream.Mode = Upstream
	scrub := DemoConfig()
	scrub.ScrubOnFree = true
	// Prefill's pool raised to decode's: a smaller decode pool could not
	// decode A at all (init_req_max_new_tokens leaves it no token).
	symmetric := DemoConfig()
	symmetric.PoolTokens = symmetric.DecodePoolTokens
	symmetricOps := []Op{
		SendOp(Request{Tenant: "A", PromptTokens: DemoPromptA, Content: DemoSecret}),
		SendOp(Request{Tenant: "B", PromptTokens: symmetric.LimitsOf(ServerDecode).MaxReqInputLen(), Content: "summarise my notes"}),
	}
	// The abort presets keep no reserve (--num-reserved-decode-tokens 0)
	// and ask for 2 new tokens each, and decode's pool has 4 tokens more
	// than prefill's (our choices): then pop_preallocated takes B (8 + 2
	// ≤ 12 free) while A's half still holds 8 pages.
	abortOne := Config{
		ContextTokens: 32, PoolTokens: 16, DecodePoolTokens: 20, PageTokens: 1,
		Mode: Vulnerable, Allocator: Sorted, Cancel: CancelOneHalf, KVBytesPerToken: DefaultKVBytesTok,
	}
	abortBoth := abortOne
	abortBoth.Cancel = CancelBoth
	abortOps := func() []Op {
		return []Op{
			SendOp(Request{Tenant: "A", PromptTokens: 8, Content: DemoSecret, CancelAt: StagePrefillTransfer, MaxNewTokens: 2}),
			SendOp(Request{Tenant: "B", PromptTokens: 8, Content: "quarterly plan", MaxNewTokens: 2}),
		}
	}
	lateOps := func(o Outcome) []Op {
		return append(abortOps(), SettleOp(1, o), SendOp(Request{Tenant: "C", PromptTokens: 8, Content: "weekly report", MaxNewTokens: 2}))
	}
	return []Preset{
		{Slug: "demo", Name: "The article's demo",
			Description: "The article's demo on two servers. Prefill's pool holds 8 pages of 16 tokens (max_req_input_len = min(256 − 1, 128 − 1) − 5 = 122), decode's 10 pages (154) with 32 tokens reserved for decoding (--num-reserved-decode-tokens; SGLang's default, 512, does not fit a 10-page pool). Tenant A's 120-token secret fits both. Tenant B's 125 tokens pass the API and decode's intake but not prefill's: init_req_max_new_tokens leaves B 15 new tokens, decode's budget fits (125 + 32 ≤ 160), decode reserves 8 pages for 125 tokens, prefill sends one placeholder token in its first page, and decode attends over all 125 positions — A's seven stale pages, and A's KV beside B's token in the first — with HTTP 200. The page size, decode's pool and reserve and B's length are ours; the shape is the article's.",
			Config:      DemoConfig(), Ops: demoOps},
		{Slug: "demo-fixed", Name: "The demo, fixed door",
			Description: "The same two requests through Cloudflare's patch as the article tells it (a joint door, which the article says went upstream as #38704): tenant B gets 400 and nothing is allocated on either server, as the article's fixed engine prints.",
			Config:      demoFixed, Ops: clone(demoOps)},
		{Slug: "demo-upstream", Name: "The demo, SGLang's door (#38935)",
			Description: "The same two requests through SGLang as merged: #36988 (2026-08-29) retires an aborted prefill result instead of sending it, and #38935 (2026-09-15) retires a request at each server's own door when its own intake rejected it. Prefill's door retires its half — no KV sender, no forward pass — but decode admitted B's prompt, so DecodePreallocQueue builds a receiver and reserves its pages. No KV ever comes: decode's receiver times out into KVPoll.Failed and answers 500, with nothing read. Which status B sees depends on the router: SGLang's mini_lb returns decode's 500; a gateway that returns prefill's answer first returns prefill's 400.",
			Config:      demoUpstream, Ops: clone(demoOps)},
		{Slug: "symmetric", Name: "Symmetric pools",
			Description: "The demo with both servers' pools the same, 160 tokens (max_req_input_len 154 on both), and tenant B's prompt at that limit: both servers reject B's 154 tokens. Decode reserves one page for its own placeholder and prefill writes its placeholder into it; decode's prebuilt batch then runs check_finished before any decode forward pass, which turns the pending FINISH_ABORT into the client's HTTP 400. Decode never attends: on the vulnerable door, no other tenant's KV is read. The leak needs decode to admit what prefill rejects.",
			Config:      symmetric, Ops: symmetricOps},
		{Slug: "glm-launch", Name: "GLM-5.3 at launch",
			Description: "Context 1,048,576 tokens on a 681,280-token prefill pool (the article's numbers); decode's pool is not in the postmortem — here it backs the context, 1,048,576 tokens (our assumption), with SGLang's default 512 tokens reserved for decoding. Tenant A's secret, then tenant D's long batch job warms both pools. Tenant B's 900,000 tokens pass decode's intake but not prefill's: decode reserves 900,000 pages, merge_and_sort_free hands it the lowest page ids — A's and D's — and decode attends over all 900,000 positions, of which prefill wrote one.",
			Config:      glm, Ops: glmOps},
		{Slug: "glm-remediated", Name: "After remediation",
			Description: "The article's remediation: the prefill pool raised to about 2,040,000 tokens and the patched engine (Cloudflare's patch as the article tells it); decode's pool, not in the postmortem, backs the context and SGLang's 512-token reserve (1,049,088 tokens, our assumption). The window closes — prefill now admits everything decode admits (both max_req_input_len 1,048,570) — and B's 900,000 tokens are read in full, its own.",
			Config:      fixed, Ops: clone(glmOps)},
		{Slug: "scrub", Name: "Scrub-on-free, vulnerable door",
			Description: "The article's demo with the fix SGLang chose not to pay for: freed pages are zeroed. No foreign content reaches tenant B, yet it still gets a wrong 200 — and every free costs a write per page.",
			Config:      scrub, Ops: clone(demoOps)},
		{Slug: "abort-one-half", Name: "Abort, router cancels one half",
			Description: "Not in the article's demo; SGLang's deferred KV release, opt-in upstream (enable_deferred_decode_kv_release). Decode's pool is 20 tokens, with no reserve, and each request asks for 2 new tokens (our choices), so that B fits beside A's held pages. Tenant A's client cancels mid-transfer and the router cancels only decode. Decode sends ABORT to prefill and holds A's 8 pages until ABORT_ACK, so B gets other pages; settle the release to free them.",
			Config:      abortOne, Ops: abortOps()},
		{Slug: "abort-both", Name: "Abort, router cancels both halves",
			Description: "The same abort with a router that cancels both halves, as SGLang's guidance after the incident advises: every page is released at once.",
			Config:      abortBoth, Ops: abortOps()},
		{Slug: "late-write", Name: "Deferred release times out: a late write",
			Description: "The second bug class SGLang's advice warns of (watch decode_deferred_kv_release_total{outcome=\"timeout\"}). Deferred decode KV release is opt-in upstream (enable_deferred_decode_kv_release). The router cancels only decode; no ABORT_ACK comes, decode frees A's pages on timeout, and merge_and_sort_free hands them to tenant C. Prefill's transfer, still in flight, lands in C's KV: C's 200 carries tenant A's secret, on a request that fit.",
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
