package web

import (
	"errors"
	"fmt"
	"strings"

	"kvleak/engine"
)

// Field ids of the configuration form; tests and docs link to them.
const (
	fieldContext = "ctx"
	fieldPool    = "pool"
	fieldPage    = "page-size"
	fieldSlot    = "slot-pages"
	fieldTokens  = "prompt-tokens"
	fieldSecret  = "secret"
	fieldTenant  = "tenant"
	fieldRename  = "tenant-name"
	fieldEnd     = "end-early"
)

// End-early choices of the request form besides "cancel at <stage>".
const (
	endNever = "never"
	endFail  = "fail-transfer"
)

// session is the playground's state without any go-app in it, so that every
// rule of the form is tested natively. The component binds events to it.
type session struct {
	cfg    engine.Config
	ops    []engine.Op
	eng    *engine.Engine
	preset string

	text map[string]string // what each field shows, valid or not
	errs map[string]string // message beside each field, "" when fine

	tenants []string
	tenant  string
	end     string

	step      int // selected log step; 0 follows the latest
	zoomFirst int // shown page range of the grid
	zoomLast  int
	notice    string // a message for the whole form (e.g. an op skipped)
}

func newSession() *session {
	s := &session{text: map[string]string{}, errs: map[string]string{}, end: endNever}
	s.loadPreset("demo")
	return s
}

// loadPreset replaces the configuration and the run with a preset's.
func (s *session) loadPreset(slug string) error {
	p, ok := engine.PresetBySlug(slug)
	if !ok {
		return fmt.Errorf("unknown preset %q", slug)
	}
	s.preset = slug
	s.tenants = []string{"A", "B", "C"}
	for _, op := range p.Ops {
		if op.Send != nil && !contains(s.tenants, op.Send.Tenant) {
			s.tenants = append(s.tenants, op.Send.Tenant)
		}
	}
	s.setConfig(p.Config)
	s.rebuild(p.Config, p.Ops)
	s.prefill(p.Ops)
	clear(s.errs)
	return nil
}

// prefill readies the form to repeat the run's last request.
func (s *session) prefill(ops []engine.Op) {
	s.end = endNever
	for i := len(ops) - 1; i >= 0; i-- {
		if last := ops[i].Send; last != nil {
			s.tenant, s.text[fieldTokens], s.text[fieldSecret] = last.Tenant, engine.Thousands(int64(last.PromptTokens)), last.Content
			return
		}
	}
}

// applyLink replaces the run with a permalink's. On error nothing changes.
func (s *session) applyLink(st linkState) error {
	e, err := engine.Replay(st.Config, st.Ops)
	if err != nil {
		return fmt.Errorf("the link's run cannot be replayed: %v", err)
	}
	if st.Step < 0 || st.Step > len(e.Events()) {
		return fmt.Errorf("the link's step %d is past the run's %d events", st.Step, len(e.Events()))
	}
	s.preset = st.Preset
	s.setConfig(st.Config)
	s.cfg, s.eng, s.ops = st.Config, e, st.Ops
	s.step, s.zoomFirst, s.zoomLast, s.notice = st.Step, 0, st.Config.PoolPages()-1, ""
	for _, op := range st.Ops {
		if op.Send != nil && !contains(s.tenants, op.Send.Tenant) && len(s.tenants) < engine.MaxTenants {
			s.tenants = append(s.tenants, op.Send.Tenant)
		}
	}
	s.prefill(st.Ops)
	clear(s.errs)
	return nil
}

// importRun replaces the run with an exported file's. On error nothing
// changes.
func (s *session) importRun(data []byte) error {
	e, f, err := engine.ImportRun(data)
	if err != nil {
		return err
	}
	s.preset = ""
	s.setConfig(f.Config)
	s.cfg, s.eng, s.ops = f.Config, e, f.Ops
	s.step, s.zoomFirst, s.zoomLast, s.notice = 0, 0, f.Config.PoolPages()-1, ""
	clear(s.errs)
	return nil
}

// link is the session as permalink state.
func (s *session) link() linkState {
	return linkState{Preset: s.preset, Config: s.cfg, Ops: s.ops, Step: s.step}
}

// setConfig shows cfg in the form fields.
func (s *session) setConfig(c engine.Config) {
	s.text[fieldContext] = engine.Thousands(int64(c.ContextTokens))
	s.text[fieldPool] = engine.Thousands(int64(c.PoolTokens))
	s.text[fieldPage] = engine.Thousands(int64(c.PageTokens))
	s.text[fieldSlot] = engine.Thousands(int64(c.SlotPages))
}

// rebuild replays ops on a fresh engine with cfg; an op the new
// configuration cannot take (e.g. settling a request that no longer
// lingers) is dropped and said so.
func (s *session) rebuild(cfg engine.Config, ops []engine.Op) {
	e, err := engine.New(cfg)
	if err != nil {
		s.notice = err.Error()
		return
	}
	kept := ops[:0:0]
	skipped := 0
	for _, op := range ops {
		if e.Apply(op) != nil {
			skipped++
			continue
		}
		kept = append(kept, op)
	}
	s.cfg, s.eng, s.ops = cfg, e, kept
	s.step, s.zoomFirst, s.zoomLast = 0, 0, cfg.PoolPages()-1
	s.notice = ""
	if skipped > 0 {
		s.notice = fmt.Sprintf("%d %s no longer apply under these settings and %s dropped.",
			skipped, pluralS(skipped, "operation", "operations"), pluralS(skipped, "was", "were"))
	}
}

var configField = map[string]string{"context": fieldContext, "pool": fieldPool, "page": fieldPage, "slot": fieldSlot}

// setNumber applies a typed number to one configuration field. Bad input
// leaves the simulation exactly as it was and explains itself.
func (s *session) setNumber(field, text string) error {
	s.text[field] = text
	n, err := parseCount(text)
	if field == fieldTokens { // checked again, with the engine's bounds, on Send
		s.errs[field] = ""
		if err != nil {
			s.errs[field] = "prompt length: " + err.Error()
		}
		return err
	}
	if err == nil {
		cfg := s.cfg
		switch field {
		case fieldContext:
			cfg.ContextTokens = n
		case fieldPool:
			cfg.PoolTokens = n
		case fieldPage:
			cfg.PageTokens = n
		case fieldSlot:
			cfg.SlotPages = n
		default:
			return fmt.Errorf("unknown field %q", field)
		}
		if err = cfg.Validate(); err == nil {
			s.errs[field] = ""
			s.preset = ""
			s.rebuild(cfg, s.ops)
			s.text[field] = engine.Thousands(int64(n))
			return nil
		}
	}
	s.errs[field] = err.Error()
	return err
}

// setChoice applies the admission mode, cancel policy or scrub switch.
func (s *session) setChoice(field, value string) error {
	cfg := s.cfg
	switch field {
	case "mode":
		cfg.Mode = engine.Mode(value)
	case "cancel":
		cfg.Cancel = engine.CancelPolicy(value)
	case "scrub":
		cfg.ScrubOnFree = value == "true"
	default:
		return fmt.Errorf("unknown field %q", field)
	}
	if err := cfg.Validate(); err != nil {
		s.errs[field] = err.Error()
		return err
	}
	s.errs[field] = ""
	s.preset = ""
	s.rebuild(cfg, s.ops)
	return nil
}

// request builds the request the form describes, or says what is wrong.
func (s *session) request() (engine.Request, error) {
	r := engine.Request{Tenant: s.tenant, Content: s.text[fieldSecret]}
	n, err := parseCount(s.text[fieldTokens])
	if err != nil {
		return r, &engine.RequestError{Field: "tokens", Msg: "prompt length: " + err.Error()}
	}
	r.PromptTokens = n
	switch {
	case s.end == endFail:
		r.FailTransfer = true
	case strings.HasPrefix(s.end, "cancel:"):
		r.CancelAt = engine.Stage(strings.TrimPrefix(s.end, "cancel:"))
	}
	return r, r.Validate()
}

var requestField = map[string]string{"tenant": fieldTenant, "tokens": fieldTokens, "content": fieldSecret, "cancelAt": fieldEnd}

// send runs the form's request. On error nothing changes but the message.
func (s *session) send() error {
	for _, f := range []string{fieldTenant, fieldTokens, fieldSecret, fieldEnd} {
		s.errs[f] = ""
	}
	r, err := s.request()
	if err == nil {
		_, err = s.eng.Send(r)
	}
	if err != nil {
		s.errs[errField(err)] = err.Error()
		return err
	}
	s.ops = append(s.ops, engine.SendOp(r))
	s.step, s.preset = 0, ""
	return nil
}

func errField(err error) string {
	var re *engine.RequestError
	if errors.As(err, &re) {
		if f, ok := requestField[re.Field]; ok {
			return f
		}
	}
	return fieldTokens
}

// settle ends a lingering request's deferred release.
func (s *session) settle(request int, o engine.Outcome) error {
	if err := s.eng.Settle(request, o); err != nil {
		s.notice = err.Error()
		return err
	}
	s.ops = append(s.ops, engine.SettleOp(request, o))
	s.step = 0
	return nil
}

// reset starts over with the current settings.
func (s *session) reset() {
	s.rebuild(s.cfg, nil)
	s.preset = ""
}

// addTenant adds the next free single-letter tenant and selects it.
func (s *session) addTenant() error {
	if len(s.tenants) >= engine.MaxTenants {
		return fmt.Errorf("at most %d tenants", engine.MaxTenants)
	}
	for c := 'A'; ; c++ {
		name := string(c)
		if c > 'Z' {
			name = fmt.Sprintf("T%d", len(s.tenants)+1)
		}
		if !contains(s.tenants, name) {
			s.tenants = append(s.tenants, name)
			s.tenant = name
			return nil
		}
	}
}

// renameTenant renames the selected tenant in the form. Requests already
// sent keep the name they were sent with: the log is history.
func (s *session) renameTenant(name string) error {
	name = strings.TrimSpace(name)
	s.errs[fieldRename] = ""
	err := engine.Request{Tenant: name, PromptTokens: 1}.Validate()
	if err == nil && contains(s.tenants, name) && name != s.tenant {
		err = fmt.Errorf("a tenant named %q already exists", name)
	}
	if err != nil {
		s.errs[fieldRename] = "new name: " + err.Error()
		return err
	}
	for i, t := range s.tenants {
		if t == s.tenant {
			s.tenants[i] = name
		}
	}
	s.tenant = name
	return nil
}

// selectTenant picks a tenant from the list.
func (s *session) selectTenant(name string) error {
	if !contains(s.tenants, name) {
		s.errs[fieldTenant] = fmt.Sprintf("unknown tenant %q", name)
		return errors.New(s.errs[fieldTenant])
	}
	s.tenant, s.errs[fieldTenant] = name, ""
	return nil
}

// selectStep shows the pool after a step of the log (0 = the latest).
func (s *session) selectStep(step int) error {
	if step < 0 || step > len(s.eng.Events()) {
		return fmt.Errorf("step %d: out of range", step)
	}
	s.step = step
	return nil
}

// current is the step on screen: the selected one, or the latest.
func (s *session) current() int {
	if s.step == 0 {
		return len(s.eng.Events())
	}
	return s.step
}

// stepBy moves the selected step by d within the log, reaching "latest"
// at the end. It reports whether the step moved.
func (s *session) stepBy(d int) bool {
	n := len(s.eng.Events())
	next := min(max(s.current()+d, 1), n)
	if n == 0 || next == s.current() {
		return false
	}
	s.step = next
	if next == n {
		s.step = 0
	}
	return true
}

// zoom shows pages first..last in the grid.
func (s *session) zoom(first, last int) error {
	if first < 0 || last >= s.cfg.PoolPages() || first > last {
		return fmt.Errorf("page range %d–%d: out of range", first, last)
	}
	s.zoomFirst, s.zoomLast = first, last
	return nil
}

// snapshot is the pool at the selected step.
func (s *session) snapshot() *engine.Snapshot {
	if s.step == 0 {
		return s.eng.Snapshot()
	}
	snap, err := s.eng.SnapshotAt(s.step)
	if err != nil {
		return s.eng.Snapshot()
	}
	return snap
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
