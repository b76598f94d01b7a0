package engine

import (
	"fmt"
	"strings"
)

// The launch suite's tenants. Its results are read back from a run by
// these names, so a replayed link grades the same.
const (
	LaunchStatusTenant = "launch-status"
	CanaryTenant1      = "canary-1"
	CanaryTenant2      = "canary-2"
	LaunchProbeTenant  = "launch-probe"
)

// The canaries' content: strings no other tenant sends.
const (
	CanaryContent1 = "CANARY-1-k7Q2"
	CanaryContent2 = "CANARY-2-p9W4"
)

// LaunchTestID names a test of the suite.
type LaunchTestID string

const (
	LaunchStatus   LaunchTestID = "status"   // what the postmortem says was tested
	LaunchCanary   LaunchTestID = "canary"   // output correctness
	LaunchCapacity LaunchTestID = "capacity" // the advertised context, backed?
)

// longContext is the long-context prompt of the status and canary tests:
// seven eighths of the advertised context.
func longContext(c Config) int { return max(c.ContextTokens/8*7, 1) }

// probeTokens is the longest prompt SGLang reads in full under a backed
// context: context − 7 (max_req_input_len is context − 6 then).
func probeTokens(c Config) int { return max(c.ContextTokens-reqInputHeadroom-2, 1) }

// LaunchSuite is the requests of the three launch tests against c, in the
// order they run. They are ordinary requests: the run keeps and replays
// them like any other.
func LaunchSuite(c Config) []Op {
	long := longContext(c)
	return []Op{
		SendOp(Request{Tenant: LaunchStatusTenant, PromptTokens: long, Content: "streamed output check"}),
		SendOp(Request{Tenant: CanaryTenant1, PromptTokens: min(64, long), Content: CanaryContent1}),
		SendOp(Request{Tenant: CanaryTenant2, PromptTokens: long, Content: CanaryContent2}),
		SendOp(Request{Tenant: LaunchProbeTenant, PromptTokens: probeTokens(c), Content: "capacity probe"}),
	}
}

// LaunchResult is one test's outcome on a run.
type LaunchResult struct {
	ID   LaunchTestID `json:"id"`
	Name string       `json:"name"`
	// What says what the test checks.
	What string `json:"what"`
	Ran  bool   `json:"ran"`
	Pass bool   `json:"pass"`
	// Detail says why it passed or failed, with the numbers.
	Detail string `json:"detail"`
	// Requests are the test's requests in the run; Pages the pages it
	// points at (the foreign ones a canary got).
	Requests []int `json:"requests,omitempty"`
	Pages    Pages `json:"pages,omitempty"`
}

// LaunchResults grades the newest launch suite in the run; a test whose
// requests are not in the run has Ran false.
func (e *Engine) LaunchResults() []LaunchResult {
	last := map[string]*Response{}
	for i := range e.responses.len {
		r := e.response(i)
		last[r.Tenant] = r
	}
	return []LaunchResult{e.gradeStatus(last[LaunchStatusTenant]), e.gradeCanary(last[CanaryTenant1], last[CanaryTenant2]), e.gradeCapacity(last[LaunchProbeTenant])}
}

func (e *Engine) gradeStatus(r *Response) LaunchResult {
	t := LaunchResult{ID: LaunchStatus, Name: "(a) HTTP status and streamed output at long context",
		What: fmt.Sprintf("What the postmortem says was tested: a %s-token prompt must get HTTP 200 and a non-empty stream. It does not look at whose the output is.", th(longContext(e.cfg)))}
	if r == nil || r.State == StateWaiting {
		return t
	}
	t.Ran, t.Requests = true, []int{r.Request}
	t.Pass = r.Status == 200 && len(r.Body) > 0
	if t.Pass {
		t.Detail = fmt.Sprintf("HTTP 200 with %s %s of output: passes.", th(r.ReadPages.Len()), plural(r.ReadPages.Len(), "page", "pages"))
		if r.Leaked() {
			t.Detail += " Yet " + leakPhrase(r.Leaks) + " are in it — this test cannot see that."
		}
		return t
	}
	t.Detail = fmt.Sprintf("HTTP %d: %s", r.Status, r.Verdict())
	return t
}

func (e *Engine) gradeCanary(c1, c2 *Response) LaunchResult {
	t := LaunchResult{ID: LaunchCanary, Name: "(b) Output correctness with canary tenants",
		What: fmt.Sprintf("Tenant %s sends a short prompt, tenant %s a %s-token one, each with a unique canary string; every 200 must hold only its own tenant's content.", CanaryTenant1, CanaryTenant2, th(longContext(e.cfg)))}
	if c1 == nil || c2 == nil || c1.State == StateWaiting || c2.State == StateWaiting {
		return t
	}
	t.Ran, t.Requests, t.Pass = true, []int{c1.Request, c2.Request}, true
	var faults []string
	for _, r := range []*Response{c1, c2} {
		if r.Status != 200 {
			continue // a refusal carries no one's content
		}
		if r.Leaked() {
			t.Pages = append(t.Pages, r.LeakedPages...)
			faults = append(faults, fmt.Sprintf("r%d (tenant %s) got %s — pages %s", r.Request, r.Tenant, leakPhrase(r.Leaks), r.LeakedPages))
		} else if r.ZeroedPages > 0 {
			faults = append(faults, fmt.Sprintf("r%d (tenant %s) got a 200 with %s %s of nothing", r.Request, r.Tenant, th(r.ZeroedPages), plural(r.ZeroedPages, "page", "pages")))
		}
	}
	if len(faults) > 0 {
		t.Pass = false
		t.Detail = "Fails: " + strings.Join(faults, "; ") + "."
		return t
	}
	t.Detail = fmt.Sprintf("Passes: r%d answered %d, r%d answered %d; no response held another tenant's content.", c1.Request, c1.Status, c2.Request, c2.Status)
	return t
}

func (e *Engine) gradeCapacity(r *Response) LaunchResult {
	c := e.cfg
	n := probeTokens(c)
	cp := c.Capacity()
	t := LaunchResult{ID: LaunchCapacity, Name: "(c) Capacity probe against the running engine",
		What: fmt.Sprintf("The advertised context is %s tokens; the running servers derive max_req_input_len = %s (prefill) and %s (decode). The probe sends %s tokens (context − 7, the longest prompt a backed context reads) and checks that it is read in full.",
			th(c.ContextTokens), th(cp.Prefill.MaxReqInputLen), th(cp.Decode.MaxReqInputLen), th(n))}
	if r == nil {
		return t
	}
	if r.State == StateWaiting {
		if never := c.neverPrealloc(r); never != "" {
			t.Ran, t.Requests = true, []int{r.Request}
			t.Detail = fmt.Sprintf("Fails: the probe is never answered — it waits in decode's DecodePreallocQueue for good: %s. Decode's pool holds the context, but not the context plus SGLang's reserve for decoding.", never)
		}
		return t
	}
	t.Ran, t.Requests = true, []int{r.Request}
	want := (r.Tokens + c.PageTokens - 1) / c.PageTokens
	t.Pass = r.Status == 200 && r.Path == PathNormal && !r.Leaked() && r.ReadPages.Len() == want
	if t.Pass {
		t.Detail = fmt.Sprintf("Passes: the %s-token prompt was read in full (%s pages); both servers accept up to %s tokens.", th(r.Tokens), th(want), th(min(cp.Prefill.MaxReqInputLen, cp.Decode.MaxReqInputLen)-1))
		return t
	}
	short, name := cp.Prefill, "prefill"
	if cp.Decode.MaxReqInputLen < short.MaxReqInputLen {
		short, name = cp.Decode, "decode"
	}
	t.Detail = fmt.Sprintf("Fails: the %s server reads at most %s tokens (max_req_input_len %s): its pool is short by %s of the advertised %s; the probe got HTTP %d on the %s path.",
		name, th(short.MaxReqInputLen-1), th(short.MaxReqInputLen), th(short.ShortBy), th(c.ContextTokens), r.Status, r.Path)
	return t
}
