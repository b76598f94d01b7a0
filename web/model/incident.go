package model

import (
	"sync"

	"kvleak/engine"
	"kvleak/permalink"
)

// IncidentPoint is one moment of the incident, from the article or
// SGLang's tracker, and the preset that shows it ("" for none).
type IncidentPoint struct {
	When, What string
	Preset     string // slug
	PresetName string
	Href       string // the preset's short link
	// Source and SourceName are the public record the point cites, if any.
	Source, SourceName string
}

// The upstream records the timeline cites.
const (
	IssueURL = "https://github.com/sgl-project/sglang/issues/30233"
	FixURL   = "https://github.com/sgl-project/sglang/pull/38704"
	// RetireURL retires an aborted prefill result (merged 2026-08-29).
	RetireURL = "https://github.com/sgl-project/sglang/pull/36988"
	// UpstreamFixURL is the door fix that merged upstream (2026-09-15).
	UpstreamFixURL = "https://github.com/sgl-project/sglang/pull/38935"
	// SpuriousLengthURL is the open fix of a spurious FINISH_LENGTH.
	SpuriousLengthURL = "https://github.com/sgl-project/sglang/pull/33508"
)

// routerWords says whose status the client sees under SGLang's door fixes.
const routerWords = "The status the client sees depends on the router: SGLang's mini_lb and sgl-router return decode's; a gateway that answers with prefill's response first would return prefill's 400."

// timeline is the article's dates and SGLang's tracker's, oldest first. A
// point with no preset names a record no preset shows.
var timeline = []struct{ when, what, preset, source, sourceName string }{
	{"6 July 2026", "SGLang has an open upstream issue for this class of bug: decode, which allocated space for the full prompt, decodes from KV cache prefill never wrote.", "demo", IssueURL, "sglang#30233"},
	{"4 Aug", "#33508 (for issue #33507) proposes a fix for a spurious FINISH_LENGTH, HTTP 200, for a request aborted mid-transfer — prefill marks it finished on KVPoll.Success. Both are still open in SGLang's tracker; the playground does not model it.", "", SpuriousLengthURL, "sglang#33508"},
	{"27 Aug – 9 Sep", "155 responses from GLM-5.3 carry fragments of another tenant's KV cache, every one with HTTP 200.", "glm-launch", "", ""},
	{"29 Aug", "SGLang merges #36988: it retires an aborted prefill result after its forward pass instead of sending it, so the client gets its 400. " + routerWords, "demo-upstream", RetireURL, "sglang#36988"},
	{"8 Sep, 23:11 UTC", "A HackerOne report lands.", "glm-launch", "", ""},
	{"9 Sep, 13:22", "Incident declared; the leak reproduced.", "demo", "", ""},
	{"9 Sep, 14:00", "The model goes private. The launch tests had checked status and streaming, not correctness.", "glm-launch-tests", "", ""},
	{"9 Sep, 19:40", "Back, with the prefill pool at about 2.04 million tokens and the engine patch.", "glm-remediated-tests", "", ""},
	{"9 Sep", "#38704 opens upstream, the fix as the article names it: admission aborts honoured before the KV handoff, and a transferred-length check. It is still open in SGLang's tracker.", "demo-fixed", FixURL, "sglang#38704"},
	{"15 Sep", "SGLang merges its own door fix, #38935, with #36988: each disaggregation queue retires a request whose own intake rejected it (per server, not both at once) — in its words a waste-and-latency fix, as #36988 already returns the 400. " + routerWords, "demo-upstream", UpstreamFixURL, "sglang#38935"},
	{"2 Oct", "The article's account: the admission-door fix, proposed upstream as #38704, lands in SGLang v0.5.21 for Mooncake and NIXL (in SGLang's tracker #38704 is still open).", "demo-fixed", "", ""},
	{"19 Oct", "The article's account: v0.5.22, the same fix for MORI.", "demo-fixed", "", ""},
	{"26 Oct", "Public disclosure, with SGLang's advice: cancel both halves, verify capacity against the running engine, watch decode_deferred_kv_release_total{outcome}.", "late-write", "", ""},
}

// IncidentTimeline is the incident's dates, each linked to its preset. It
// never changes, so it is built once and shared: callers only read it.
var IncidentTimeline = sync.OnceValue(func() []IncidentPoint {
	out := make([]IncidentPoint, len(timeline))
	for i, t := range timeline {
		out[i] = IncidentPoint{When: t.when, What: t.what, Source: t.source, SourceName: t.sourceName}
		if p, ok := engine.PresetBySlug(t.preset); ok {
			out[i].Preset, out[i].PresetName, out[i].Href = t.preset, p.Name, PresetHref(t.preset)
		}
	}
	return out
})

// PresetHref is a preset's short link, from the site's root: go-app puts
// the hosting prefix before it, and before a bare "?…" it would drop the
// slash ("/kvleak?…").
func PresetHref(slug string) string { return "/?v=" + permalink.Version + "&preset=" + slug }

// PresetHrefIn is a preset's link shown as v shows the run: an embed's
// link keeps embed=1 (and its other view keys but the tour), so the preset
// opens in the frame as an embed rather than as the whole playground.
func PresetHrefIn(v View, slug string) string {
	v.Tour = 0
	href := PresetHref(slug)
	for _, k := range v.keys() {
		href += "&" + k
	}
	return href
}
