package engine

import "fmt"

// DecodePoolForSinglePool is the decode pool a configuration made before
// the engine had two pools (links of schema v1 and v2, run files of
// versions 1 and 2) is given: one that backs the advertised context, at
// least the single pool it had, in whole pages and within the bounds. Then
// every prompt the API passes reaches decode's door, as the single-pool
// engine sent them.
func DecodePoolForSinglePool(contextTokens, poolTokens, pageTokens int) int {
	if pageTokens < 1 {
		return poolTokens
	}
	backed := (contextTokens + pageTokens - 1) / pageTokens * pageTokens
	room := (MaxPoolPages - poolTokens/pageTokens) * pageTokens // what the bound on both pools leaves
	return max(min(max(poolTokens, backed), MaxPoolTokens, room), min(poolTokens, MaxPoolTokens))
}

// MigrateV3 is the run a configuration made before decode had a prealloc
// budget or clamped max_new_tokens (links of schema v1 to v3, run files of
// versions 1 to 3) is given, and what changed, in a sentence. Those runs
// reserved nothing for decoding, so the reserve is 0; and every request
// decode admitted was decoded, so decode's pool is raised, where it must
// be, to the smallest whole-page pool that leaves each request decode
// admits at least 2 max_new_tokens after init_req_max_new_tokens
// (ceil_page(n) + page + 3 tokens) — short of admitting a prompt decode
// rejected then, and within the bounds. Page ids now count from 1.
func MigrateV3(cfg Config, ops []Op) (Config, string) {
	old, page := cfg.DecodePoolTokens, cfg.PageTokens
	cfg.ReservedDecodeTokens = 0
	if page < 1 {
		return cfg, migrateV3Words(old, cfg, "")
	}
	ceil := func(n int) int { return (n + page - 1) / page * page }
	dec := cfg.LimitsOf(ServerDecode)
	open := NewLimits(cfg.ContextTokens, MaxPoolTokens, page) // the context's own bound, whatever the pool
	need, bound := 0, min(MaxPoolTokens, (MaxPoolPages-cfg.PagesOf(ServerPrefill))*page)
	kept := bound // the largest pool that still rejects what decode rejected
	for _, op := range ops {
		if op.Send == nil {
			continue
		}
		r := op.Send
		v := cfg.Admit(r.PromptTokens, r.MaxNewTokens)
		switch {
		case v.Refused != NotRefused || v.Door == DoorRetires:
		case v.DecodeRejected:
			if !open.Rejects(r.PromptTokens) { // a pool past n + 6 would admit it
				kept = min(kept, (r.PromptTokens+reqInputHeadroom+1)/page*page)
			}
		default:
			want := min(2, open.ClampMaxNew(r.PromptTokens, r.MaxNewTokens))
			need = max(need, ceil(r.PromptTokens)+page+1+want)
		}
	}
	short := ""
	if need > dec.PoolTokens {
		cfg.DecodePoolTokens = max(old, min(ceil(need), bound, kept))
		switch {
		case ceil(need) > kept && kept < bound:
			short = "a larger pool would admit a prompt decode rejected when the run was made"
		case ceil(need) > bound:
			short = "a larger pool is past the engine's bounds"
		}
	}
	return cfg, migrateV3Words(old, cfg, short)
}

// migrateV3Words says what MigrateV3 changed; short says why decode's
// pool could not be raised as far as the run needs ("" when it could).
func migrateV3Words(old int, cfg Config, short string) string {
	pool := fmt.Sprintf("decode's pool stays %s tokens", th(old))
	if cfg.DecodePoolTokens != old {
		pool = fmt.Sprintf("decode's pool is raised from %s to %s tokens", th(old), th(cfg.DecodePoolTokens))
	}
	switch {
	case short != "":
		pool += ": " + short + ", so a request decode admits may keep fewer than 2 max_new_tokens after init_req_max_new_tokens, and decode then never attends for it"
	case cfg.DecodePoolTokens != old:
		pool += ", so that each request decode admits keeps at least 2 max_new_tokens after init_req_max_new_tokens and is decoded as it was"
	}
	return fmt.Sprintf("Decode now has SGLang's prealloc budget (--num-reserved-decode-tokens) and clamps max_new_tokens (init_req_max_new_tokens); this run reserves %s tokens, as it reserved none, and %s. Page ids now count from 1, as SGLang's do.",
		th(cfg.ReservedDecodeTokens), pool)
}
