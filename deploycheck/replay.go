package deploycheck

import (
	"errors"
	"fmt"

	"kvleak/engine"
)

// Replay is a run of the playground on a checked pair: its pools, page
// size and context, its releases as an admission mode, and requests that
// end in one prompt inside the window — or, when the window is closed,
// just past prefill's limit. It holds numbers and the playground's own
// tenants and contents, never pasted text.
type Replay struct {
	Config engine.Config
	Ops    []engine.Op
	// Prompt is the last request's length: the one the reader watches.
	Prompt int
	// InWindow says whether Prompt is in the replay's window.
	InWindow bool
	// Notes say where the replay differs from the deployment.
	Notes []string
}

// The replay's requests. Tenant A's secret comes first, as in the
// article's demo; D's requests are earlier traffic; B's is the reader's.
const (
	secretTokens  = 4_096
	replayTenantA = "A"
	replayTenantD = "D"
	replayTenantB = "B"
	warmContent   = "earlier traffic"
	probeContent  = "a prompt in your window"
	pastContent   = "a prompt just past prefill's limit"
	// maxWarmups keeps the link short: a link holds at most 200 requests
	// (permalink.MaxLinkOps).
	maxWarmups = 64
)

// ErrNoReplay means the pair is too large for the playground to replay:
// its two pools hold more pages than the engine simulates, or its
// requests would touch more than a link may ask for.
var ErrNoReplay = errors.New("too large to replay in the playground")

// Settings are a checked pair's numbers as one engine holds both servers:
// the pools, the API's context (the smaller) and prefill's page size, with
// Notes where the halves differ or the report is read back. This is where
// the servers' settings become the engine's, for the link's run (Replay)
// and for a request log replayed at them (kvleak replay -prefill -decode,
// the Replay panel's "Replay at these servers' settings"): a setting the
// engine gains is read from the Servers here.
type Settings struct {
	Config engine.Config
	Notes  []string
}

// Settings are the pair's settings, refused when the engine cannot hold
// them.
func (v Verdict) Settings() (Settings, error) {
	p, d := v.Prefill, v.Decode
	cfg := engine.Config{
		ContextTokens:    v.APIContext,
		PoolTokens:       p.Limits.PoolTokens,
		DecodePoolTokens: d.Limits.PoolTokens,
		PageTokens:       p.Server.PageTokens,
		Mode:             v.Mode,
		Allocator:        engine.Sorted,
		Cancel:           engine.CancelBoth,
		KVBytesPerToken:  engine.DefaultKVBytesTok,
		// Decode's num_reserved_decode_tokens: its prealloc budget.
		ReservedDecodeTokens: d.Server.ReservedDecode(),
	}
	if err := cfg.Validate(); err != nil {
		return Settings{}, fmt.Errorf("%w: %v", ErrNoReplay, err)
	}
	st := Settings{Config: cfg}
	if p.Server.PageTokens != d.Server.PageTokens {
		st.Notes = append(st.Notes, fmt.Sprintf("the replay's two pools use prefill's page size, %s tokens", th(cfg.PageTokens)))
	}
	if p.Server.ContextTokens != d.Server.ContextTokens {
		st.Notes = append(st.Notes, fmt.Sprintf("the replay's two servers use the smaller context length, %s tokens", th(cfg.ContextTokens)))
	}
	for _, h := range []Half{p, d} {
		if h.Server.ReportDiffers() {
			st.Notes = append(st.Notes, fmt.Sprintf("the replay's %s pool is %s tokens, as its reported max_req_input_len gives it (max_token_pool_size), not its max_total_num_tokens, %s", h.Role, th(h.Limits.PoolTokens), th(h.Server.PoolTokens)))
		}
	}
	return st, nil
}

// Replay builds the run at the pair's Settings.
func (v Verdict) Replay() (Replay, error) {
	p, d := v.Prefill, v.Decode
	st, err := v.Settings()
	if err != nil {
		return Replay{}, err
	}
	cfg := st.Config
	r := Replay{Config: cfg, Notes: st.Notes}
	if v.Mode == engine.Vulnerable && (p.Fix.State == FixUnknown || d.Fix.State == FixUnknown) {
		r.Notes = append(r.Notes, "the replay runs the pre-fix door where the release is unknown")
	}

	w, read := cfg.Window(), cfg.ReadWindow()
	prefillMax := cfg.LimitsOf(engine.ServerPrefill).MaxReqInputLen()
	r.InWindow = w.Open()
	r.Prompt = prefillMax // the shortest prompt prefill rejects
	switch {
	case read.Open():
		r.Prompt = read.Last // the longest decode attends over: it reads the most pages
	case r.InWindow:
		r.Prompt = w.Last // decode's budget, or its max_new_tokens clamp, stops every one
	}
	// The longest prompt both servers read in full and decode's prealloc
	// budget takes on an idle pool: a longer one would wait in
	// DecodePreallocQueue for good, and every request behind it.
	decodeMax := cfg.LimitsOf(engine.ServerDecode).MaxReqInputLen()
	fits := min(prefillMax-1, decodeMax-1, cfg.PagesOf(engine.ServerDecode)*cfg.PageTokens-cfg.ReservedDecodeTokens)
	content := pastContent
	if r.InWindow {
		content = probeContent
	}
	probe := engine.SendOp(engine.Request{Tenant: replayTenantB, PromptTokens: r.Prompt, Content: content})
	if fits < 1 {
		r.Ops = []engine.Op{probe}
	} else {
		secret := min(secretTokens, fits)
		r.Ops = []engine.Op{engine.SendOp(engine.Request{Tenant: replayTenantA, PromptTokens: secret, Content: engine.DemoSecret})}
		if r.InWindow {
			budget := engine.MaxReplayWork - engine.ReplayWork(cfg, append(r.Ops, probe))
			r.Ops = append(r.Ops, warmups(cfg, r.Prompt, fits, secret, budget)...)
		}
		r.Ops = append(r.Ops, probe)
	}
	if engine.ReplayWork(cfg, r.Ops) > engine.MaxReplayWork {
		return Replay{}, ErrNoReplay
	}
	return r, nil
}

// warmups are the earlier requests that leave decode fewer never-written
// pages than the probe reserves, so that its reservation is handed pages
// other tenants wrote, as in a pool that has served traffic (on a cold
// pool with SGLang's sorted free list it would get fresh ones first). Each
// is the longest prompt both servers read in full; they stop at the
// replay's budget, and the probe then reads some never-written pages.
func warmups(cfg engine.Config, probe, warm, secret int, budget int64) []engine.Op {
	pages := cfg.PagesOf(engine.ServerDecode)
	need := pages - cfg.ReservedPages(probe) // written pages beyond which the probe's reservation cannot fit beside them
	used := cfg.ReservedPages(secret)
	op := engine.SendOp(engine.Request{Tenant: replayTenantD, PromptTokens: warm, Content: warmContent})
	cost := engine.ReplayWork(cfg, []engine.Op{op})
	var ops []engine.Op
	for used <= need && len(ops) < maxWarmups && budget >= cost {
		ops = append(ops, op)
		used += cfg.ReservedPages(warm)
		budget -= cost
	}
	return ops
}
