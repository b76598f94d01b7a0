package deploycheck

import (
	"fmt"
	"strings"

	"kvleak/engine"
)

// Status is the verdict's first word.
type Status string

const (
	Exposed    Status = "EXPOSED"
	Patched    Status = "PATCHED"
	NotExposed Status = "NOT EXPOSED"
)

// Half is one server of the pair as the check sees it.
type Half struct {
	Role   engine.Server
	Server Server
	// Limits are the server's validate_input_length limits, from the
	// engine's own code (engine.NewLimits).
	Limits engine.Limits
	Fix    Fix
}

// Verdict is the check of a prefill/decode pair.
type Verdict struct {
	Status Status
	// Headline is the first line, beginning with Status.
	Headline        string
	Prefill, Decode Half
	// APIContext is the context length the API in front refuses at:
	// prompts of this many tokens or more (the smaller context_length).
	APIContext int
	// Window is the prompt lengths prefill's intake rejects and decode's
	// admits (engine.LeakWindow).
	Window engine.Window
	// Mode is how the engine runs this pair: which parts of SGLang #38704
	// its releases carry (the prefill door's retirement, decode's length
	// check).
	Mode engine.Mode
	// Notes call out what a reader should look at: mixed releases, halves
	// that disagree, values assumed or derived.
	Notes []string
}

// CheckText parses both boxes and checks the pair. The error, if any, is
// an *InputError naming the box and the field.
func CheckText(prefill, decode string) (Verdict, error) {
	var s [2]Server
	for i, text := range []string{prefill, decode} {
		var err error
		if s[i], err = Parse(text); err != nil {
			err.(*InputError).Box = string(engine.Servers[i])
			return Verdict{}, err
		}
	}
	return Check(s[0], s[1])
}

// Check judges a pair: the prefill server and the decode server it hands
// its KV to. The error, if any, is an *InputError: a server in the wrong
// box, or not in PD mode.
func Check(prefill, decode Server) (Verdict, error) {
	if err := checkRoles(prefill, decode); err != nil {
		return Verdict{}, err
	}
	if err := peerContexts(&prefill, &decode); err != nil {
		return Verdict{}, err
	}
	v := Verdict{
		Prefill:    half(engine.ServerPrefill, prefill),
		Decode:     half(engine.ServerDecode, decode),
		APIContext: min(prefill.ContextTokens, decode.ContextTokens),
	}
	v.Window = engine.LeakWindow(v.Prefill.Limits, v.Decode.Limits)
	p, d := v.Prefill.Fix.State == HasFix, v.Decode.Fix.State == HasFix
	switch {
	case p && d:
		v.Mode = engine.Fixed
	case p:
		v.Mode = engine.RetireOnly
	case d:
		v.Mode = engine.LengthCheckOnly
	default:
		v.Mode = engine.Vulnerable
	}
	switch {
	case !v.Window.Open():
		v.Status = NotExposed
	case v.Mode == engine.Vulnerable:
		v.Status = Exposed
	default:
		v.Status = Patched
	}
	v.Headline = v.headline()
	v.Notes = v.notes()
	return v, nil
}

func half(role engine.Server, s Server) Half {
	return Half{Role: role, Server: s, Limits: s.Limits(), Fix: FixOf(s)}
}

// checkRoles refuses a pair that is not a prefill server and a decode
// server, saying which box holds what.
func checkRoles(prefill, decode Server) error {
	if prefill.Mode == ModeDecode && decode.Mode == ModePrefill {
		return &InputError{Field: "disaggregation_mode", Msg: "the boxes are swapped: the prefill box holds a decode server and the decode box a prefill server"}
	}
	for i, s := range []Server{prefill, decode} {
		box := engine.Servers[i]
		if s.Mode == string(box) {
			continue
		}
		n := s.names.mode
		if s.Mode == ModeNull {
			why := fmt.Sprintf("its %s is %q", n, ModeNull)
			if s.ModeAssumed {
				why = fmt.Sprintf("its command has no %s, so SGLang runs it as %q", n, ModeNull)
			}
			return &InputError{Box: string(box), Field: n, Msg: fmt.Sprintf("not a prefill/decode server: %s — one server does both halves, so there is no handoff and no window (the leak needs PD mode)", why)}
		}
		return &InputError{Box: string(box), Field: n, Msg: fmt.Sprintf("this is a %s server (its %s is %q): paste it in the %s box", s.Mode, n, s.Mode, s.Mode)}
	}
	return nil
}

// peerContexts gives a server whose context length the text does not say
// (context_length null, no --context-length) the other server's: the two
// halves of a pair serve one model. When neither says it, it says where to
// read it. It then holds both to SGLang's rule (Server.checkLimits).
func peerContexts(prefill, decode *Server) error {
	p, d := prefill.ContextTokens == 0, decode.ContextTokens == 0
	switch {
	case p && d:
		return &InputError{Field: "context_length", Msg: "neither server says its context length (context_length is null, or the command has no --context-length), and no max_req_input_len below its pool gives it back. " +
			"Read it at GET /v1/models (max_model_len), in the server's start-up log line \"max_total_num_tokens=…, …, context_len=…\", or as max_position_embeddings in the model's config.json; then add \"context_length\": <it> to one JSON, or --context-length <it> to one command"}
	case p:
		prefill.ContextTokens, prefill.ContextFromPeer = decode.ContextTokens, true
	case d:
		decode.ContextTokens, decode.ContextFromPeer = prefill.ContextTokens, true
	}
	for i, s := range []*Server{prefill, decode} {
		if err := s.checkLimits(); err != nil {
			err.(*InputError).Box = string(engine.Servers[i])
			return err
		}
	}
	return nil
}

// headline is the line a person acts on.
func (v Verdict) headline() string {
	switch v.Status {
	case NotExposed:
		return string(NotExposed) + ": the window is closed (prefill admits everything decode admits)"
	case Exposed:
		return fmt.Sprintf("%s: prompts of %s pass decode's door and take prefill's placeholder path; %s",
			Exposed, v.Window, v.both(func(h Half) string { return h.Fix.Words }))
	}
	p, d := v.Prefill, v.Decode
	switch v.Mode {
	case engine.RetireOnly:
		return fmt.Sprintf("%s: the window is open but prefill's %s retires the rejection at its door (decode: %s)", Patched, p.Server.Version, d.Fix.alsoWords())
	case engine.LengthCheckOnly:
		return fmt.Sprintf("%s: the window is open but decode's %s checks the transferred length before it commits (prefill: %s)", Patched, d.Server.Version, p.Fix.alsoWords())
	}
	if p.Server.Version == d.Server.Version {
		return fmt.Sprintf("%s: the window is open but %s retires the rejection at the door", Patched, p.Server.Version)
	}
	return fmt.Sprintf("%s: the window is open but prefill's %s and decode's %s retire the rejection at the door", Patched, p.Server.Version, d.Server.Version)
}

// both says a thing of the two halves once when it is the same for both.
func (v Verdict) both(say func(Half) string) string {
	p, d := say(v.Prefill), say(v.Decode)
	if p == d {
		return p
	}
	return "prefill: " + p + "; decode: " + d
}

// Lines are the verdict as text: the headline, each server's limits and
// release, the API's limit, the window, and the notes.
func (v Verdict) Lines() []string {
	lines := []string{v.Headline}
	for _, h := range []Half{v.Prefill, v.Decode} {
		lines = append(lines, fmt.Sprintf("%-8s %s; %s", string(h.Role)+":", h.limitWords(), h.Fix.Words))
	}
	lines = append(lines, fmt.Sprintf("API:     refuses prompts of %s tokens or more (context_length)", th(v.APIContext)))
	switch {
	case !v.Window.Open():
		lines = append(lines, "window:  closed: decode rejects (or the API refuses) every prompt prefill rejects")
	case v.Status == Patched:
		lines = append(lines, fmt.Sprintf("window:  %s (%s prompt lengths): prefill rejects them and decode admits them; the fix ends them with the 400 instead of a read of stale pages", v.Window, th(v.Window.Len())))
	default:
		lines = append(lines, fmt.Sprintf("window:  %s (%s prompt lengths): prefill rejects them and decode admits them, so decode attends over the whole prompt while prefill sends one placeholder token", v.Window, th(v.Window.Len())))
	}
	for _, n := range v.Notes {
		lines = append(lines, "note:    "+n)
	}
	return lines
}

func (v Verdict) String() string { return strings.Join(v.Lines(), "\n") }

// notes are the call-outs.
func (v Verdict) notes() []string {
	var out []string
	p, d := v.Prefill.Server, v.Decode.Server
	if p.Version != "" && d.Version != "" && p.Version != d.Version {
		out = append(out, fmt.Sprintf("mixed releases: prefill runs %s and decode %s", p.Version, d.Version))
	}
	if p.Backend != d.Backend {
		out = append(out, fmt.Sprintf("the halves name different transfer backends (prefill %s, decode %s): a pair moves its KV over one", p.Backend, d.Backend))
	}
	if p.PageTokens != d.PageTokens {
		out = append(out, fmt.Sprintf("page sizes differ: prefill %s, decode %s tokens per page; each pool is counted in its own pages", th(p.PageTokens), th(d.PageTokens)))
	}
	if p.ContextTokens != d.ContextTokens {
		out = append(out, fmt.Sprintf("context lengths differ: prefill %s, decode %s; the API refuses at the smaller", th(p.ContextTokens), th(d.ContextTokens)))
	}
	if !v.Window.Open() && (v.Prefill.Fix.State == LacksFix || v.Decode.Fix.State == LacksFix) {
		lacks := v.both(func(h Half) string {
			if h.Fix.State != LacksFix {
				return "—"
			}
			return h.Fix.Words
		})
		out = append(out, lacks+": a prefill pool that shrinks, or a decode pool that grows, opens the window again; upgrade")
	}
	for _, h := range []Half{v.Prefill, v.Decode} {
		out = append(out, h.notes()...)
	}
	return out
}

// limitWords say a half's limit: the engine's rule on its numbers, or the
// limit it reports beside the rule's when the two differ.
func (h Half) limitWords() string {
	s, l := h.Server, h.Limits
	if !s.ReportDiffers() {
		return fmt.Sprintf("max_req_len %s, max_req_input_len %s = %s", th(l.MaxReqLen()), th(l.MaxReqInputLen()), l.Words())
	}
	bound := fmt.Sprintf("max_token_pool_size %s", th(l.PoolTokens))
	if !s.PoolBoundsReport() {
		bound = fmt.Sprintf("context %s − 6; max_token_pool_size is at least the context", th(s.ContextTokens))
	}
	rule := s.RuleLimits()
	return fmt.Sprintf("max_req_input_len %s as the server reports it (%s); the rule on max_total_num_tokens would give %s = %s",
		th(l.MaxReqInputLen()), bound, th(rule.MaxReqInputLen()), rule.Words())
}

// notes are what a half's numbers rest on, when not read as reported.
func (h Half) notes() []string {
	s, n, role := h.Server, h.Server.names, string(h.Role)
	var out []string
	if s.PoolIsCap {
		out = append(out, fmt.Sprintf("%s's pool is %s %s, an upper bound: a server whose GPUs hold less builds less (\"max_total_tokens=… is larger than the profiled value\"); "+serverInfo+" says what it built", role, n.pool, th(s.PoolTokens)))
	}
	if rule := s.RuleLimits(); rule.PoolTokens != s.PoolTokens {
		out = append(out, fmt.Sprintf("%s's pool of %s tokens is %s in whole pages of %s", role, th(s.PoolTokens), th(rule.PoolTokens), th(s.PageTokens)))
	}
	switch {
	case s.ContextDerived:
		out = append(out, fmt.Sprintf("%s's context_length is null (the model's own); %s is its max_req_input_len %s + 6", role, th(s.ContextTokens), th(s.ReportedMaxReqInputLen)))
	case s.ContextFromPeer:
		what := "its context_length is null"
		if s.Source == FromLaunch {
			what = "its command has no " + flagContext
		}
		out = append(out, fmt.Sprintf("%s does not say its context length (%s): the other server's, %s, is used, as both serve one model; if the other's was set by hand, add %s's own", role, what, th(s.ContextTokens), role))
	}
	if s.ReportDiffers() {
		out = append(out, fmt.Sprintf("%s reports max_req_input_len %s where the rule on max_total_num_tokens %s gives %s: SGLang bounds the limit by the model runner's max_token_pool_size (tp_worker.py), which for a hybrid sliding-window model is the full-attention pool; the verdict follows the report",
			role, th(s.ReportedMaxReqInputLen), th(s.PoolTokens), th(s.RuleLimits().MaxReqInputLen())))
	}
	if s.LauncherAssumed {
		out = append(out, fmt.Sprintf("%s's list names no launcher: its flags are read as sglang.launch_server's (the container's entrypoint)", role))
	}
	if s.PageAssumed {
		out = append(out, fmt.Sprintf("%s's command has no %s: SGLang's default, 1, is assumed (some attention backends choose larger pages)", role, flagPage))
	}
	if s.BackendAssumed {
		out = append(out, fmt.Sprintf("%s names no transfer backend: SGLang's default, mooncake, is assumed", role))
	}
	if s.VersionFrom != "" {
		out = append(out, fmt.Sprintf("%s's release %s is read from %s", role, s.Version, s.VersionFrom))
	}
	if s.ImageTag != "" {
		out = append(out, fmt.Sprintf("%s's image %s names no release", role, s.ImageTag))
	}
	return out
}

// alsoWords is the fix of the half that lacks it, beside one that has it.
func (f Fix) alsoWords() string {
	if f.State == LacksFix {
		return f.Words + " — upgrade it too"
	}
	return f.Words + " — check it too"
}

func th(n int) string { return engine.Thousands(int64(n)) }
