package model

import (
	"fmt"
	"slices"

	"kvleak/engine"
	"kvleak/permalink"
)

// Session is the playground's state without any go-app in it: the run
// (configuration, operations, engine), what each field shows, the selected
// step and zoom, and how the run is shown. Every method either applies a
// change or, on bad input, records a message beside the field and changes
// nothing else.
type Session struct {
	cfg    engine.Config
	ops    []engine.Op
	eng    *engine.Engine
	preset string

	text fieldTexts // what each field shows, valid or not
	errs fieldTexts // message beside each field, "" when fine

	tenants []string
	tenant  string
	end     string // EndEarly's value: EndNever, EndFail or "cancel:<stage>"

	step      int // selected log step; 0 follows the latest
	zoomFirst int // shown page range of the grid
	zoomLast  int
	notice    string // a message for the whole form (e.g. an op skipped)

	view    View
	playing bool
	// holdNames: the timeline is being dragged (HoldNames).
	holdNames bool
	memo      memo
	// tourReset says what the tour's last move undid of the reader's run.
	tourReset string
	chal      challengeState // the ladder (challenge.go)
}

// NewSession opens on the article's demo.
func NewSession() *Session {
	s := &Session{end: EndNever}
	s.LoadPreset("demo")
	return s
}

// Config is the engine's configuration.
func (s *Session) Config() engine.Config { return s.cfg }

// Engine is the run's engine. Read it; change it only through the session.
func (s *Session) Engine() *engine.Engine { return s.eng }

// Ops is the run's operations, oldest first. Do not modify it.
func (s *Session) Ops() []engine.Op { return s.ops }

// Preset is the slug of the scenario the run still matches ("" for none).
func (s *Session) Preset() string { return s.preset }

// Text is what field f shows, valid or not.
func (s *Session) Text(f Field) string { return s.text[f.index()] }

// Err is the message beside field f ("" when it is fine).
func (s *Session) Err(f Field) string { return s.errs[f.index()] }

// Notice is a message about the whole run (e.g. operations dropped).
func (s *Session) Notice() string { return s.notice }

// View is how the run is shown.
func (s *Session) View() View { return s.view }

// SetView changes how the run is shown; a read-only view is an embed.
func (s *Session) SetView(v View) { v.ReadOnly = v.ReadOnly && v.Embed; s.view = v }

// ToggleCompare shows or hides the side-by-side engines.
func (s *Session) ToggleCompare() { s.view.Compare = !s.view.Compare }

// fieldTexts holds a string per field, and a spare slot that an unknown
// field reads and writes, so that no Field value can index out of range.
type fieldTexts [fieldCount + 1]string

func (f Field) index() int {
	if f < 0 || f >= fieldCount {
		return int(fieldCount) // the spare slot: never shown
	}
	return int(f)
}

// LoadPreset replaces the configuration and the run with a preset's.
func (s *Session) LoadPreset(slug string) error {
	p, ok := engine.PresetBySlug(slug)
	if !ok {
		return fmt.Errorf("unknown preset %q", permalink.Clip(slug))
	}
	s.preset = slug
	s.tenants = []string{"A", "B", "C"}
	s.addTenantsOf(p.Ops)
	s.showConfig(p.Config)
	s.rebuild(p.Config, p.Ops)
	s.prefill(p.Ops)
	s.clearErrs()
	return nil
}

// ApplyLink replaces the run with a permalink's. On error nothing changes.
func (s *Session) ApplyLink(st Link) error {
	e, err := engine.Replay(st.Config, st.Ops)
	if err != nil {
		return fmt.Errorf("the link's run cannot be replayed: %v", err)
	}
	if st.Step < 0 || st.Step > e.Log().Len() {
		return fmt.Errorf("the link's step %d is past the run's %d events", st.Step, e.Log().Len())
	}
	s.preset = st.Preset
	s.showConfig(st.Config)
	s.setRun(st.Config, e, st.Ops)
	s.notice = st.Migrated
	s.step = st.Step
	s.SetView(st.View)
	s.addTenantsOf(st.Ops)
	s.prefill(st.Ops)
	s.clearErrs()
	return nil
}

// ImportRun replaces the run with an exported file's. On error nothing
// changes.
func (s *Session) ImportRun(data []byte) error {
	e, f, err := engine.ImportRun(data)
	if err != nil {
		return err
	}
	s.preset = ""
	s.showConfig(f.Config)
	s.setRun(f.Config, e, f.Ops)
	if f.Migrated != "" {
		s.notice = permalink.MigrationNotice("file", fmt.Sprintf("run file version %d", f.Version), f.Config, f.Version < 3, f.Version == 1, f.Migrated)
	}
	s.addTenantsOf(f.Ops)
	s.prefill(f.Ops)
	s.clearErrs()
	return nil
}

// Link is the session as permalink state.
func (s *Session) Link() Link {
	return Link{permalink.LinkState{Preset: s.preset, Config: s.cfg, Ops: s.ops, Step: s.step}, s.view}
}

// setRun makes e, replayed from cfg and ops, the run on screen, at its
// latest step and showing the whole pool.
func (s *Session) setRun(cfg engine.Config, e *engine.Engine, ops []engine.Op) {
	s.cfg, s.eng, s.ops = cfg, e, ops
	s.memo.tabOps = tabOps{} // the run kept in the tab is encoded afresh
	s.step, s.zoomFirst, s.zoomLast, s.notice = 0, 0, cfg.PagesOf(engine.ServerDecode)-1, ""
}

// addTenantsOf adds the tenants a run's requests name to the form's list.
func (s *Session) addTenantsOf(ops []engine.Op) {
	for _, op := range ops {
		if op.Send != nil && !slices.Contains(s.tenants, op.Send.Tenant) && len(s.tenants) < engine.MaxTenants {
			s.tenants = append(s.tenants, op.Send.Tenant)
		}
	}
}

// showConfig shows cfg in the settings' fields.
func (s *Session) showConfig(c engine.Config) {
	for _, f := range Settings {
		s.text[f.index()] = f.display(c)
	}
}

func (s *Session) clearErrs() { s.errs = fieldTexts{} }

// rebuild replays ops on a fresh engine with cfg; an op the new
// configuration cannot take (e.g. settling a request that no longer
// lingers) is dropped and said so.
func (s *Session) rebuild(cfg engine.Config, ops []engine.Op) {
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
	s.setRun(cfg, e, kept)
	if skipped > 0 {
		s.notice = fmt.Sprintf("%d %s no longer apply under these settings and %s dropped.",
			skipped, plural(skipped, "operation", "operations"), plural(skipped, "was", "were"))
	}
}

// Reset starts over with the current settings.
func (s *Session) Reset() {
	s.rebuild(s.cfg, nil)
	s.preset = ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
