package model

import (
	"fmt"
	"strconv"

	"kvleak/engine"
)

// ResponseView is the response panel: the newest response at the selected
// step, in words. Every value comes from the engine.
type ResponseView struct {
	Sent     bool   // a response exists at this step
	Status   string // "200", or "—" before any request
	Who      string // " to tenant B (request r2, 12 tokens)"
	Verdict  string
	Announce string // the sentence the status region reads out
	Tone     string // leak, wrong, ok or refused: how the verdict is marked
	Reason   string // the error body of a non-200
	// Router says whose status the client sees, where the servers answer
	// differently: under SGLang's per-server door prefill retired the
	// request with its 400 while decode answers its own 500.
	Router string
	Body   []SegmentView
	// Transcript is the response as the article's demo script printed it.
	Transcript []string
}

// SegmentView is a run of pages of a response body from one writer.
type SegmentView struct {
	Pages  string // "pages 1–7" (pagesWords)
	Who    string // "tenant A · r1" (whoseKV)
	Text   string // what each page holds, ×n
	Leaked bool
}

// Response is the response panel's view at the selected step.
func (s *Session) Response() ResponseView {
	r, ok := s.LastResponse()
	if !ok {
		return ResponseView{Status: "—", Verdict: "No request sent yet."}
	}
	v := ResponseView{
		Sent: true, Status: strconv.Itoa(r.Status), Verdict: r.Verdict(), Announce: r.Announcement(), Reason: r.Reason,
		Who:        fmt.Sprintf(" to tenant %s (request r%d, %s tokens)", r.Tenant, r.Request, engine.Thousands(int64(r.Tokens))),
		Transcript: r.Transcript(),
	}
	if s.cfg.Mode == engine.Upstream && r.PrefillRejected && !r.DecodeRejected && r.State != engine.StateWaiting {
		v.Router = routerWords
	}
	switch r.State {
	case engine.StateWaiting:
		v.Status, v.Who = "…", fmt.Sprintf(" for tenant %s (request r%d waits for pages)", r.Tenant, r.Request)
		if r.Wait != "" { // pop_preallocated's budget, or the request ahead
			v.Who = fmt.Sprintf(" for tenant %s (request r%d waits in DecodePreallocQueue: %s)", r.Tenant, r.Request, r.Wait)
		}
	case engine.StateCancelled:
		v.Status, v.Who = "—", fmt.Sprintf(" for tenant %s (request r%d: the client went away)", r.Tenant, r.Request)
	}
	switch {
	case r.State == engine.StateWaiting || r.State == engine.StateCancelled:
		v.Tone = "pending"
	case r.Leaked():
		v.Tone = "leak"
	case r.WrongStatus:
		v.Tone = "wrong"
	case r.Status == 200:
		v.Tone = "ok"
	default:
		v.Tone = "refused"
	}
	for _, seg := range r.Body {
		v.Body = append(v.Body, segmentView(seg, r.Request))
	}
	return v
}

func segmentView(s engine.Segment, self int) SegmentView {
	return SegmentView{Pages: pagesWords(s.Pages), Who: whoseKV(s.Writer, s.Tenant, self), Text: segmentText(s.Text, s.Pages.Len()), Leaked: s.Leaked}
}

// pagesWords names pages as the response body and the pool maps' regions
// do: "page 0", "pages 1–4,095".
func pagesWords(p engine.Pages) string {
	return plural(p.Len(), "page", "pages") + " " + p.String()
}

// whoseKV says whose KV pages hold, by the request that wrote their first
// positions (0: none), as the response body and the pool maps' regions
// do: "tenant A · r1", "tenant B · this request (r4)" when self wrote it.
func whoseKV(writer int, tenant string, self int) string {
	switch {
	case writer == 0:
		return "zeroed or never written"
	case writer == self:
		return "tenant " + tenant + " · this request (r" + strconv.Itoa(writer) + ")"
	}
	return "tenant " + tenant + " · r" + strconv.Itoa(writer)
}

func segmentText(text string, n int) string {
	if n == 1 {
		return text
	}
	return fmt.Sprintf("%s  ×%s", text, engine.Thousands(int64(n)))
}

// MetricRow is one labelled counter.
type MetricRow struct{ Key, Label, Value string }

// MetricsView is the metrics panel: the capacity check and the counters.
type MetricsView struct {
	Capacity string
	Short    bool // the window between the servers is open: some prompts leak
	Rows     []MetricRow
}

// Metrics is the metrics panel's view of the run.
func (s *Session) Metrics() MetricsView {
	m := &s.memo.counters
	cur := m.at(s.eng)
	if m.metrics == nil {
		c := s.cfg.Capacity()
		m.metrics = &MetricsView{Capacity: "Capacity check: " + c.String(), Short: c.Window.Open(), Rows: metricRows(cur)}
	}
	return *m.metrics
}

// metricRows lists the engine's counters in reading order.
func metricRows(m engine.Metrics) []MetricRow {
	n := func(v int) string { return engine.Thousands(int64(v)) }
	return []MetricRow{
		{"responses", "Responses", n(m.Responses)},
		{"leaked-responses", "Leaked responses", n(m.LeakedResponses)},
		{"leaked-pages", "Leaked pages", n(m.LeakedPages)},
		{"wrong-status", "200s for rejected requests", n(m.WrongStatus)},
		{"finished", "Finished", n(m.Finished)},
		{"rejected", "Rejected", n(m.Rejected)},
		{"aborted", "Aborted after admission (length or writer check)", n(m.Aborted)},
		{"errored", "Errored (KVPoll.Failed)", n(m.Errored)},
		{"cancelled", "Cancelled by the client", n(m.Cancelled)},
		{"waiting", "Waiting for pages", n(m.Waiting)},
		{"pages-allocated", "Decode pages allocated", n(m.Decode.Allocated)},
		{"pages-free", "Decode pages free", n(m.Decode.Free)},
		{"pages-staged", "Decode pages in release_pages", n(m.Decode.Staged)},
		{"pages-stale", "Decode pages stale", n(m.Decode.Stale)},
		{"pages-lingering", "Decode pages lingering", n(m.PagesLingering)},
		{"prefill-pages-allocated", "Prefill pages allocated", n(m.Prefill.Allocated)},
		{"prefill-pages-stale", "Prefill pages stale", n(m.Prefill.Stale)},
		{"scrub-writes", "Scrub writes", n(m.ScrubWrites)},
		{"scrub-bytes", "Scrub bytes (at the simulation's KV bytes per token)", engine.Thousands(m.ScrubBytes)},
		{"deferred-drained", "Deferred release: drained", n(m.DeferredRelease[engine.OutcomeDrained])},
		{"deferred-timeout", "Deferred release: timeout", n(m.DeferredRelease[engine.OutcomeTimeout])},
		{"deferred-error", "Deferred release: error", n(m.DeferredRelease[engine.OutcomeError])},
		{"late-writes", "Late writes into reused pages", n(m.LateWrites)},
		{"pages-unretired", "Pages held by aborted requests nobody retired", n(m.PagesUnretired)},
		{"ghost-pages", "Pages reserved for clients that had gone", n(m.GhostPages)},
		{"writer-checks", "Writer-check metadata reads", n(m.WriterChecks)},
		{"gateway-alerts", "AI gateway alerts", n(m.GatewayAlerts)},
		{"gateway-blocks", "AI gateway blocks (502)", n(m.GatewayBlocks)},
	}
}

// Lingering is a request whose decode half still holds its pages, or,
// when Waiting, one that waits in DecodePreallocQueue for free pages.
type Lingering struct {
	Request int
	Tenant  string
	Waiting bool
}

// Lingering lists the requests waiting for a deferred release to settle,
// then those waiting for its pages.
func (s *Session) Lingering() []Lingering {
	var out []Lingering
	for _, id := range s.eng.Lingering() {
		out = append(out, Lingering{id, s.eng.TenantOf(id), false})
	}
	for _, id := range s.eng.Waiting() {
		out = append(out, Lingering{id, s.eng.TenantOf(id), true})
	}
	return out
}

// CompareView is the same requests through both doors.
type CompareView struct {
	Difference string
	Sides      [2]SideView // vulnerable, fixed
}

// SideView is one door's result, with its pool as a mini grid.
type SideView struct {
	Title, Mode     string
	Status, Verdict string
	Totals          string
	Grid            GridView
}

func buildCompare(cfg engine.Config, ops []engine.Op, tenants []string) (CompareView, error) {
	c, err := engine.Compare(cfg, ops)
	if err != nil {
		return CompareView{}, err
	}
	v := CompareView{Difference: c.Difference}
	titles := [2]string{"vulnerable door (pre-patch)", "fixed door (Cloudflare's patch, the article)"}
	for i, side := range []engine.Side{c.Vulnerable, c.Fixed} {
		pages, resps := side.Metrics.LeakedPages, side.Metrics.LeakedResponses
		sv := SideView{Title: titles[i], Mode: string(side.Mode), Status: "—", Verdict: "No request yet.",
			Totals: "Over the run: " + engine.Thousands(int64(pages)) + " leaked " + plural(pages, "page", "pages") + " in " +
				engine.Thousands(int64(resps)) + " " + plural(resps, "response", "responses") + "."}
		if side.Last != nil {
			sv.Status, sv.Verdict = strconv.Itoa(side.Last.Status), side.Last.Verdict()
		}
		snap := side.Snapshot
		if sv.Grid, err = BuildGrid(snap, tenants, 0, snap.Pages()-1, GridMarks{}, maxMiniCells); err != nil {
			return CompareView{}, err
		}
		v.Sides[i] = sv
	}
	return v, nil
}
