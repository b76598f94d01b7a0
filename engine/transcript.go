package engine

import (
	"fmt"
	"strings"
)

// Transcript is the response as the article's demo script prints it: the
// body page by page, the status, and whether another tenant's data is in
// it. A request the patched door retired prints the article's wording for
// its 400 (ArticleRejection); SGLang's own message is in Reason.
func (r Response) Transcript() []string {
	who := "tenant-" + r.Tenant
	switch {
	case r.State == StateWaiting && r.Allocated > 0:
		return []string{who + "'s response : (waiting in prefill's waiting queue)"}
	case r.State == StateWaiting:
		return []string{who + "'s response : (waiting in DecodePreallocQueue)"}
	case r.State == StateCancelled:
		return []string{who + "'s response : (none: the client went away)"}
	case r.Status != 200:
		reason := r.Reason
		if r.Path == PathPlaceholder && r.State == StateRejected && r.Allocated == 0 {
			reason = ArticleRejection // the door's; decode's own 400, after it ran, is SGLang's
		}
		return []string{fmt.Sprintf("%s's response : HTTP %d: %s", who, r.Status, reason)}
	}
	leaked := "another tenant's"
	if len(r.Leaks) > 0 {
		names := make([]string, len(r.Leaks))
		for i, l := range r.Leaks {
			names[i] = "tenant-" + l.Tenant + "'s"
		}
		leaked = strings.Join(names, " and ")
	}
	return []string{
		who + "'s response : " + r.BodyText(transcriptPages),
		"HTTP status reported to " + who + ": 200 OK",
		fmt.Sprintf("LEAK: %s's response contains %s data -> %s", who, leaked, pyBool(r.Leaked())),
	}
}

// transcriptPages is how many pages of one writer a transcript prints
// before it elides the rest: the article's "typically eight pages".
const transcriptPages = 8

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// DemoTranscript runs the article's demo through the vulnerable and the
// fixed engine and prints what the article's demo script printed, computed
// by the engine.
func DemoTranscript() ([]string, error) {
	p, _ := PresetBySlug("demo")
	var out []string
	for _, side := range []struct {
		mode      Mode
		head, say string
	}{
		{Vulnerable, "=== vulnerable engine (admission checks `.finished`, matches the pre-patch SGLang) ===",
			"sends a request longer than the KV pool can hold."},
		{Fixed, "=== fixed engine (admission checks `.rejected`, matches SGLang #38704 / v0.5.21+) ===",
			"sends the same over-length request."},
	} {
		cfg := p.Config
		cfg.Mode = side.mode
		e, err := Replay(cfg, p.Ops)
		if err != nil {
			return nil, err
		}
		r, _ := e.LastResponse()
		out = append(out, side.head, "tenant-"+r.Tenant+" "+side.say)
		lines := r.Transcript()
		if side.mode == Fixed {
			lines = lines[:1] // the article prints only the refusal
		}
		out = append(out, lines...)
	}
	return out, nil
}

// DemoNotes says, under the demo's transcript, what the article's output
// does not: which wording of the 400 is the article's and which SGLang's,
// and how the run fits two servers. Computed from the same runs.
func DemoNotes() ([]string, error) {
	p, _ := PresetBySlug("demo")
	fixed := p.Config
	fixed.Mode = Fixed
	ef, err := Replay(fixed, p.Ops)
	if err != nil {
		return nil, err
	}
	ev, err := Replay(p.Config, p.Ops)
	if err != nil {
		return nil, err
	}
	refused, _ := ef.LastResponse()
	leaked, _ := ev.LastResponse()
	c := p.Config
	return []string{
		"Notes (not in the article's output):",
		"- The fixed engine's 400 above is in the article's wording. SGLang's validate_input_length says: “" + refused.Reason + "”",
		fmt.Sprintf("- Two servers: prefill's pool holds %s tokens, decode's %s with %s reserved for decoding (decode's pool, its reserve — SGLang's default is %s — and the %s-token pages are the simulation's). Decode reserved %s for tenant-%s's %s tokens (max_new_tokens clamped to %s) and attended over all %s positions; prefill wrote %s.",
			th(c.PoolTokens), th(c.DecodePoolTokens), th(c.ReservedDecodeTokens), th(DefaultReservedDecodeTokens), th(c.PageTokens), pagesWord(leaked.Allocated), leaked.Tenant, th(leaked.Tokens), th(leaked.MaxNew), th(leaked.Committed), th(leaked.Sent)),
	}, nil
}
