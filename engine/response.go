package engine

import (
	"fmt"
	"strings"
)

// Path is the way a request took through the engine.
type Path string

const (
	PathNormal      Path = "normal"      // the prompt fit the pool
	PathPlaceholder Path = "placeholder" // a server's intake swapped the prompt for one token and set a pending 400
	PathAPIReject   Path = "api-reject"  // longer than the advertised context: refused by the API
)

// Segment is a run of consecutive pages in a response body whose first
// position came from the same writer.
type Segment struct {
	Pages  Pages  `json:"pages"`
	Writer int    `json:"writer"` // request that wrote their first position; 0 for zeroed pages
	Tenant string `json:"tenant"` // tenant of that request; "" for zeroed pages
	Text   string `json:"text"`   // what each page holds
	Leaked bool   `json:"leaked"` // written by another tenant
}

// Leak counts what one foreign tenant contributed to a response: the pages
// whose first position holds its KV, and every position decode attended
// over that holds its KV (in those pages and beside another writer's).
type Leak struct {
	Tenant string `json:"tenant"`
	Pages  int    `json:"pages"`
	Tokens int    `json:"tokens"`
}

// Response is what the client received, with provenance for every page.
type Response struct {
	Request int    `json:"request"`
	Tenant  string `json:"tenant"`
	Tokens  int    `json:"tokens"`
	Path    Path   `json:"path"`
	// PrefillRejected and DecodeRejected say which server's intake
	// rejected the prompt (each against its own pool).
	PrefillRejected bool  `json:"prefillRejected,omitempty"`
	DecodeRejected  bool  `json:"decodeRejected,omitempty"`
	State           State `json:"state"`
	Status          int   `json:"status"`
	// Reason is the error message of a non-200 response.
	Reason string `json:"reason,omitempty"`
	// Body holds the pages decode read, grouped by the writer of their
	// first position, in reservation order.
	Body []Segment `json:"body,omitempty"`
	// ReadPages are the pages decode read; LeakedPages those whose first
	// position another tenant wrote; MixedPages those whose first position
	// is the reader's but whose later positions hold another tenant's KV.
	ReadPages   Pages  `json:"readPages,omitempty"`
	LeakedPages Pages  `json:"leakedPages,omitempty"`
	MixedPages  Pages  `json:"mixedPages,omitempty"`
	Leaks       []Leak `json:"leaks,omitempty"`
	// ZeroedPages were read but held nothing (scrubbed or never written).
	ZeroedPages int `json:"zeroedPages,omitempty"`
	// Reserved is fill_len, the tokens decode reserved pages for; Sent the
	// tokens prefill transferred; Committed the positions decode attended
	// over (kv_committed_len), of which OwnTokens the request's own KV,
	// ForeignTokens other tenants' and EmptyTokens nobody's.
	Reserved      int `json:"reserved,omitempty"`
	Sent          int `json:"sent,omitempty"`
	Committed     int `json:"committed,omitempty"`
	OwnTokens     int `json:"ownTokens,omitempty"`
	ForeignTokens int `json:"foreignTokens,omitempty"`
	EmptyTokens   int `json:"emptyTokens,omitempty"`
	// MaxNew is max_new_tokens as decode's init_req_max_new_tokens left
	// it: 0 finishes the request in decode's prebuilt batch, unread.
	MaxNew int `json:"maxNew,omitempty"`
	// Wait says, while the request waits in DecodePreallocQueue, the
	// budget that stops it ("125 + 512 reserved > 160 free") or the
	// request ahead of it ("behind r1").
	Wait string `json:"wait,omitempty"`
	// WrongStatus is a 200 for a request whose rejection was pending.
	WrongStatus bool `json:"wrongStatus,omitempty"`
	// Allocated is how many pages decode reserved for the request.
	Allocated int `json:"allocated"`
	// Lingering is set while a half of the request still holds its pages.
	Lingering bool `json:"lingering,omitempty"`
	// CancelledAt is the stage at which the client cancelled.
	CancelledAt Stage `json:"cancelledAt,omitempty"`
	// LateWriteFrom lists the requests whose late transfer (after their
	// deferred release timed out) wrote into this response's pages.
	LateWriteFrom []int `json:"lateWriteFrom,omitempty"`
	// FailedUnseen: the KV transfer failed and decode, never told, went on.
	FailedUnseen bool `json:"failedUnseen,omitempty"`
	// Unretired: aborted, but nobody freed its pages; they stay held.
	Unretired bool `json:"unretired,omitempty"`
	// Gateway is what the AI gateway did on finding another tenant's
	// content: "alert" or "block" ("" when it found none or is off).
	Gateway string `json:"gateway,omitempty"`
	// Step is the log step of the response event; ReadStep that of the
	// decode read (0 when decode read nothing).
	Step     int `json:"step"`
	ReadStep int `json:"readStep,omitempty"`
}

// Leaked reports whether decode attended over another tenant's KV for it.
func (r Response) Leaked() bool { return r.ForeignTokens > 0 }

// BodyText renders the body as the article's demo prints it, page by page,
// eliding long runs after maxPerSegment pages.
func (r Response) BodyText(maxPerSegment int) string {
	var parts []string
	for _, s := range r.Body {
		n := s.Pages.Len()
		show := min(n, maxPerSegment)
		for range show {
			parts = append(parts, s.Text)
		}
		if n > show {
			parts = append(parts, fmt.Sprintf("… ×%s more", th(n-show)))
		}
	}
	return strings.Join(parts, " | ")
}

// leakPhrase is "7 pages of tenant A": pages where a tenant's KV holds the
// first position, else its positions.
func leakPhrase(leaks []Leak) string {
	parts := make([]string, len(leaks))
	for i, l := range leaks {
		if l.Pages > 0 {
			parts[i] = fmt.Sprintf("%s of tenant %s", pagesWord(l.Pages), l.Tenant)
		} else {
			parts[i] = fmt.Sprintf("%s of tenant %s's KV", positionsWord(l.Tokens), l.Tenant)
		}
	}
	return strings.Join(parts, " and ")
}

// attendedNote is how much of what decode attended over prefill wrote,
// when that is less: " — decode attended over 125 positions; prefill wrote 1".
func (r Response) attendedNote() string {
	if r.Sent >= r.Committed || r.Committed == 0 {
		return ""
	}
	return fmt.Sprintf(" — decode attended over %s; prefill wrote %s", positionsWord(r.Committed), th(r.Sent))
}

// Verdict says in words what happened, for the verdict line.
func (r Response) Verdict() string {
	v := r.verdict()
	if r.Leaked() && len(r.LateWriteFrom) == 0 && r.Gateway != "block" {
		v += r.attendedNote()
	}
	if r.Gateway == "alert" {
		v += " — the AI gateway raised an alert"
	}
	return v
}

// Headline is the verdict's first clause, for a picture or a title: the
// verdict without how much of what decode attended over prefill wrote.
func (r Response) Headline() string { return r.verdict() }

func (r Response) verdict() string {
	switch {
	case r.Gateway == "block":
		return fmt.Sprintf("BLOCKED by the AI gateway: decode read %s for tenant %s; the client got 502 instead", leakPhrase(r.Leaks), r.Tenant)
	case r.State == StateCancelled && r.ReadPages.Len() > 0:
		return fmt.Sprintf("Cancelled by the client at %s, yet nothing retired it: the engine ran it to the end for nobody (%s %s reserved, %s read)",
			r.CancelledAt, th(r.Allocated), plural(r.Allocated, "page", "pages"), th(r.ReadPages.Len()))
	case r.Leaked() && r.Status != 200:
		return fmt.Sprintf("LEAK: decode attended over %s for tenant %s, though it answered %d", leakPhrase(r.Leaks), r.Tenant, r.Status)
	case r.Leaked() && len(r.LateWriteFrom) > 0:
		return fmt.Sprintf("LEAK: %s returned to tenant %s with HTTP %d — written late into its own pages by %s's prefill half after a deferred-release timeout",
			leakPhrase(r.Leaks), r.Tenant, r.Status, requestList(r.LateWriteFrom))
	case r.Leaked():
		return fmt.Sprintf("LEAK: %s returned to tenant %s with HTTP %d", leakPhrase(r.Leaks), r.Tenant, r.Status)
	case r.State == StateWaiting && r.Allocated > 0:
		return fmt.Sprintf("Waiting in prefill's waiting queue for free pages of prefill's pool, with decode's %s reserved; retried when pages are released", pagesWord(r.Allocated))
	case r.State == StateWaiting && r.Wait != "":
		return "Waiting in DecodePreallocQueue: " + r.Wait + "; retried when pages are released"
	case r.State == StateWaiting:
		return "Waiting in DecodePreallocQueue for free pages; retried when pages are released"
	case r.WrongStatus && r.ReadPages.Len() == 0:
		return fmt.Sprintf("WRONG 200: tenant %s's rejected request was answered with 200 — decode had no token to generate (max_new_tokens %d) and attended over nothing, but a failure was reported as success",
			r.Tenant, r.MaxNew)
	case r.WrongStatus:
		return fmt.Sprintf("WRONG 200: tenant %s's rejected request was answered with %d zeroed %s — no foreign content, but a failure reported as success",
			r.Tenant, r.ZeroedPages, plural(r.ZeroedPages, "page", "pages"))
	case r.Path == PathAPIReject:
		return fmt.Sprintf("Rejected with 400 by the API: %s-token prompt is longer than the advertised context", th(r.Tokens))
	case r.State == StateRejected && r.DecodeRejected && r.Allocated > 0:
		return fmt.Sprintf("Rejected with 400 by decode: its own intake had rejected the prompt too, so it reserved %s for its placeholder and its prebuilt batch finished the request before any decode forward pass; no KV was attended",
			pagesWord(r.Allocated))
	case r.State == StateRejected:
		return "Rejected with 400 before any page was allocated"
	case r.State == StateCancelled && r.Lingering:
		return fmt.Sprintf("Cancelled by the client at %s: decode still holds %d %s, waiting for the prefill half's ABORT_ACK",
			r.CancelledAt, r.Allocated, plural(r.Allocated, "page", "pages"))
	case r.State == StateCancelled:
		return fmt.Sprintf("Cancelled by the client at %s; every page released", r.CancelledAt)
	case r.State == StateAborted && r.Unretired:
		return fmt.Sprintf("Aborted with %d, but nothing retired it: its %d %s stay held and no later request can have them",
			r.Status, r.Allocated, plural(r.Allocated, "page", "pages"))
	case r.State == StateAborted && r.Status == 500:
		return fmt.Sprintf("Aborted with 500 before decode read anything: %s", r.Reason)
	case r.State == StateAborted:
		return fmt.Sprintf("Aborted with %d before decode committed: prefill transferred 1 token for %d reserved %s; no stale page was read",
			r.Status, r.Allocated, plural(r.Allocated, "page", "pages"))
	case r.State == StateErrored:
		return fmt.Sprintf("Errored with %d: %s", r.Status, r.Reason)
	}
	if r.Status == 200 && r.ReadPages.Len() == 0 {
		return fmt.Sprintf("OK: HTTP 200 to tenant %s with prefill's one token: max_new_tokens %d left decode nothing to generate, so nothing was attended", r.Tenant, r.MaxNew)
	}
	return fmt.Sprintf("OK: HTTP 200 with tenant %s's own %s %s", r.Tenant, th(r.ReadPages.Len()), plural(r.ReadPages.Len(), "page", "pages"))
}

// Announcement is the short sentence a screen reader hears.
func (r Response) Announcement() string {
	switch {
	case r.Leaked() && r.Gateway != "block":
		return fmt.Sprintf("%s leaked to tenant %s", leakPhrase(r.Leaks), r.Tenant)
	case r.State == StateCancelled || r.State == StateWaiting:
		// No status reached the client: 499 is the log's word for one that went away.
		return fmt.Sprintf("Request %d from tenant %s: no response. %s", r.Request, r.Tenant, r.Verdict())
	}
	return fmt.Sprintf("Request %d from tenant %s: HTTP %d. %s", r.Request, r.Tenant, r.Status, r.Verdict())
}

// requestList names requests: "r1", "r1 and r3".
func requestList(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = fmt.Sprintf("r%d", id)
	}
	return strings.Join(parts, " and ")
}
