package model

import (
	"sync"

	"kvleak/engine"
)

// IncidentPoint is one moment of the incident, from the article, and the
// preset that shows it.
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
	// UpstreamFixURL is the door fix that merged upstream (2026-09-15).
	UpstreamFixURL = "https://github.com/sgl-project/sglang/pull/38935"
)

// timeline is the article's dates, oldest first.
var timeline = []struct{ when, what, preset, source, sourceName string }{
	{"6 July 2026", "SGLang has an open upstream issue for this class of bug: decode, which allocated space for the full prompt, decodes from KV cache prefill never wrote.", "demo", IssueURL, "sglang#30233"},
	{"27 Aug – 9 Sep", "155 responses from GLM-5.3 carry fragments of another tenant's KV cache, every one with HTTP 200.", "glm-launch", "", ""},
	{"8 Sep, 23:11 UTC", "A HackerOne report lands.", "glm-launch", "", ""},
	{"9 Sep, 13:22", "Incident declared; the leak reproduced.", "demo", "", ""},
	{"9 Sep, 14:00", "The model goes private. The launch tests had checked status and streaming, not correctness.", "glm-launch-tests", "", ""},
	{"9 Sep, 19:40", "Back, with the prefill pool at about 2.04 million tokens and the engine patch.", "glm-remediated-tests", "", ""},
	{"15 Sep", "SGLang merges its own door fix, #38935: each disaggregation queue retires a request whose own intake rejected it (per server, not both at once).", "demo-upstream", UpstreamFixURL, "sglang#38935"},
	{"2 Oct", "The article's account: the admission-door fix, proposed upstream as #38704, lands in SGLang v0.5.21 for Mooncake and NIXL.", "demo-fixed", FixURL, "sglang#38704"},
	{"19 Oct", "The article's account: v0.5.22, the same fix for MORI.", "demo-fixed", "", ""},
	{"26 Oct", "Public disclosure, with SGLang's advice: cancel both halves, verify capacity against the running engine, watch decode_deferred_kv_release_total{outcome}.", "late-write", "", ""},
}

// IncidentTimeline is the incident's dates, each linked to its preset. It
// never changes, so it is built once and shared: callers only read it.
var IncidentTimeline = sync.OnceValue(func() []IncidentPoint {
	out := make([]IncidentPoint, len(timeline))
	for i, t := range timeline {
		p, _ := engine.PresetBySlug(t.preset)
		out[i] = IncidentPoint{When: t.when, What: t.what, Preset: t.preset, PresetName: p.Name,
			Href: PresetHref(t.preset), Source: t.source, SourceName: t.sourceName}
	}
	return out
})

// PresetHref is a preset's short link, from the site's root: go-app puts
// the hosting prefix before it, and before a bare "?…" it would drop the
// slash ("/kvleak?…").
func PresetHref(slug string) string { return "/?v=" + linkVersion + "&preset=" + slug }

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
