package model

import (
	"fmt"
	"strings"

	"kvleak/engine"
	"kvleak/permalink"
)

// SettingView is one engine setting as the form shows it.
type SettingView struct {
	Field   Field
	Text    string // the input's text, valid or not (numbers)
	Value   string // the selected option (choices)
	On      bool   // flags
	Hint    string
	Err     string
	Options []Option
	Set     []SetItem // a KindSet's boxes
}

// Settings are the engine settings as the form shows them, in form order.
// They are kept while the configuration and the fields' texts and messages
// are the same: a step or a Send rendered the form's views again (a fifth
// of a step's render, its hints built with Sprintf). Do not modify them.
func (s *Session) Settings() []SettingView {
	m := &s.memo
	if k := (formKey{s.cfg, s.text, s.errs}); k != m.settingsKey || m.settings == nil {
		m.settings, m.settingsKey = s.settingsAfresh(), k
	}
	return m.settings
}

// settingsAfresh builds the settings' views.
func (s *Session) settingsAfresh() []SettingView {
	out := make([]SettingView, len(Settings))
	for i, f := range Settings {
		v := SettingView{Field: f, Text: s.Text(f), Value: f.value(s.cfg), Hint: f.Hint(), Err: s.Err(f), Options: f.Options()}
		if on := f.spec().setting.Flag(&s.cfg); on != nil {
			v.On = *on
		}
		switch f {
		case Mode:
			v.Hint = modeHint(s.cfg.Mode)
		case Allocator:
			v.Hint = allocatorHint(s.cfg.Allocator)
		case Door:
			v.Hint, v.Set = doorHint(s.cfg), doorItems(s.cfg)
		case WriterCheck:
			v.Hint = writerCheckHint
		case Gateway:
			v.Hint = gatewayHint(s.cfg.Gateway)
		}
		out[i] = v
	}
	return out
}

// PresetCustom is the scenario picker's value for settings that match no
// preset.
const PresetCustom = "custom"

// PresetView is the scenario picker: its options and the chosen one's
// description.
type PresetView struct {
	Selected    string // a slug, or PresetCustom
	Description string
	Options     []Option
}

// Presets is the scenario picker's view, kept while the run matches the
// same preset.
func (s *Session) Presets() PresetView {
	m := &s.memo
	if s.preset != m.presetsOf || m.presets.Options == nil {
		m.presets, m.presetsOf = s.presetsAfresh(), s.preset
	}
	return m.presets
}

// presetsAfresh builds the scenario picker's view.
func (s *Session) presetsAfresh() PresetView {
	v := PresetView{Selected: PresetCustom, Description: "Your own settings.", Options: []Option{{PresetCustom, "— custom —"}}}
	slugs, names := engine.PresetNames()
	for i, slug := range slugs {
		v.Options = append(v.Options, Option{slug, names[i]})
	}
	if p, ok := engine.PresetBySlug(s.preset); ok {
		v.Selected, v.Description = p.Slug, p.Description
	}
	return v
}

// PresetName is the name of the scenario the run matches, for captions.
func (s *Session) PresetName() string {
	if p, ok := engine.PresetBySlug(s.preset); ok {
		return p.Name
	}
	return "Custom scenario"
}

// RequestView is the request form as it shows.
type RequestView struct {
	Tenants []string
	Tenant  string
	Prompt  string
	Secret  string
	MaxNew  string
	Rename  string
	End     string
	Errs    map[Field]string // only the fields with a message
	// PromptHint states the limit the running engine derives.
	PromptHint string
}

// Request is the request form's view.
func (s *Session) Request() RequestView {
	v := RequestView{Tenants: s.tenants, Tenant: s.tenant, Prompt: s.Text(PromptTokens), Secret: s.Text(Secret), MaxNew: s.Text(MaxNew),
		Rename: s.Text(TenantName), End: s.end, PromptHint: promptHint(s.cfg)}
	if n, err := permalink.ParseCount(v.Prompt); err == nil && n >= 1 {
		v.PromptHint = reservationWords(s.cfg, n) + " " + v.PromptHint
	}
	for _, f := range []Field{Tenant, TenantName, PromptTokens, Secret, EndEarly, MaxNew} {
		if msg := s.Err(f); msg != "" {
			if v.Errs == nil {
				v.Errs = map[Field]string{}
			}
			v.Errs[f] = msg
		}
	}
	return v
}

// Query is the permalink query of the run, shown as view says.
func (s *Session) Query(view View) string {
	return strings.Join(append([]string{"v=" + permalink.Version, s.runQuery()}, view.keys()...), "&")
}

// runQuery is the link's run keys (permalink.RunQuery), encoded once per
// run and step: a render asks for several links of the same run (the
// address bar, the full playground's, the embed's, whether it fits).
func (s *Session) runQuery() string {
	m := &s.memo
	k := runKey{s.snapKey(), s.preset, len(s.ops)}
	if k != m.runKey || m.runQuery == "" {
		m.runQuery, m.runKey = permalink.RunQuery(s.Link().LinkState), k
	}
	return m.runQuery
}

// Linkable reports whether the run fits in a permalink that DecodeLink
// accepts (its operations, its length and the pages its requests touch);
// a longer run is shared with Export JSON instead. A render and
// the address bar ask it several times a change, so it adds up the widest
// link's length instead of building the link.
func (s *Session) Linkable() bool {
	widest := View{Compare: true, Embed: true, ReadOnly: true}
	return len(s.ops) <= permalink.MaxLinkOps && s.queryLen(widest) <= permalink.MaxQueryBytes &&
		engine.ReplayWork(s.cfg, s.ops) <= engine.MaxReplayWork // what DecodeLink reads
}

// queryLen is len(s.Query(view)).
func (s *Session) queryLen(view View) int {
	n := len("v="+permalink.Version) + 1 + len(s.runQuery())
	for _, k := range view.keys() {
		n += 1 + len(k)
	}
	return n
}

// reservationWords says what the servers do with a prompt of n tokens:
// "Prefill rejects 125 tokens and sends one placeholder token; decode
// admits them and reserves 8 pages for 125 tokens."
func reservationWords(c engine.Config, n int) string {
	th := func(n int) string { return engine.Thousands(int64(n)) }
	p, d := c.LimitsOf(engine.ServerPrefill), c.LimitsOf(engine.ServerDecode)
	if p.OverAPI(n) {
		return "The API refuses " + th(n) + " tokens: not below the context."
	}
	pre := "Prefill admits " + th(n) + " tokens"
	if p.Rejects(n) {
		pre = "Prefill rejects " + th(n) + " tokens and sends one placeholder token"
	}
	dec := "decode admits them and reserves " + pagesWord(c.ReservedPages(n)) + " for " + th(n) + " tokens."
	if d.Rejects(n) {
		dec = "decode rejects them too and reserves " + pagesWord(c.ReservedPages(n)) + " for its placeholder."
	}
	return pre + "; " + dec
}

// promptHint is each server's limit for this engine, in the reader's terms.
func promptHint(c engine.Config) string {
	th := func(n int) string { return engine.Thousands(int64(n)) }
	p, d := c.LimitsOf(engine.ServerPrefill).MaxReqInputLen(), c.LimitsOf(engine.ServerDecode).MaxReqInputLen()
	w := "none do"
	if win := c.Window(); win.Open() {
		w = win.String() + " do"
	}
	return fmt.Sprintf("Each server derives max_req_input_len from its own pool: prefill %s, decode %s tokens. At or above it, that server swaps the prompt for a placeholder. Prompts prefill rejects and decode admits leak on the vulnerable door: %s. At or above the %s-token context, the API refuses it.",
		th(p), th(d), w, th(c.ContextTokens))
}
