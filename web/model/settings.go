package model

import (
	"fmt"

	"kvleak/engine"
	"kvleak/permalink"
)

// SetNumber applies a typed number to a numeric field. A setting rebuilds
// the run under the new configuration; the prompt length is only stored
// (Send checks it again, with the engine's bounds). Bad input leaves the
// simulation exactly as it was and explains itself beside the field.
func (s *Session) SetNumber(f Field, text string) error {
	if f.Kind() != KindNumber {
		return fmt.Errorf("%s is not a number field", f)
	}
	s.text[f.index()] = text
	parse := permalink.ParseCount
	if f.spec().zeroOK {
		parse = permalink.ParseCountOrZero
	}
	n, err := parse(text)
	if f == PromptTokens {
		s.errs[f.index()] = ""
		if err != nil {
			s.errs[f.index()] = "prompt length: " + err.Error()
		}
		return err
	}
	if err == nil {
		cfg := s.cfg
		*f.spec().setting.Int(&cfg) = n
		if err = s.applyConfig(f, cfg); err == nil {
			s.text[f.index()] = engine.Thousands(int64(n))
			return nil
		}
	}
	s.errs[f.index()] = err.Error()
	return err
}

// SetChoice applies one of a choice setting's options.
func (s *Session) SetChoice(f Field, value string) error {
	st := f.spec().setting
	if !st.IsChoice() {
		return fmt.Errorf("%s is not a choice setting", f)
	}
	cfg := s.cfg
	st.SetChoice(&cfg, value)
	err := s.applyConfig(f, cfg)
	if err == nil {
		s.text[f.index()] = value
	}
	return err
}

// SetFlag turns an on/off setting on or off.
func (s *Session) SetFlag(f Field, on bool) error {
	cfg := s.cfg
	flag := f.spec().setting.Flag(&cfg)
	if flag == nil {
		return fmt.Errorf("%s is not an on/off setting", f)
	}
	*flag = on
	err := s.applyConfig(f, cfg)
	if err == nil {
		s.text[f.index()] = f.value(cfg)
	}
	return err
}

// SetMode picks the admission door.
func (s *Session) SetMode(m engine.Mode) error { return s.SetChoice(Mode, string(m)) }

// SetCancel picks the router's policy on a client abort.
func (s *Session) SetCancel(c engine.CancelPolicy) error { return s.SetChoice(Cancel, string(c)) }

// SetScrub turns scrub-on-free on or off.
func (s *Session) SetScrub(on bool) error { return s.SetFlag(Scrub, on) }

// applyConfig replays the run under cfg, or says why cfg is refused.
func (s *Session) applyConfig(f Field, cfg engine.Config) error {
	if err := cfg.Validate(); err != nil {
		s.errs[f.index()] = err.Error()
		return err
	}
	s.errs[f.index()] = ""
	s.preset = ""
	s.rebuild(cfg, s.ops)
	return nil
}

// FitLastPrompt raises the prefill pool until the last request's prompt is
// under prefill's limit (max_req_input_len), and replays the run: the
// tour's other fix, the article's remediation. A prompt the context cannot
// take is refused.
func (s *Session) FitLastPrompt() error {
	var prompt int
	for _, op := range s.ops {
		if op.Send != nil {
			prompt = op.Send.PromptTokens
		}
	}
	cfg := s.cfg
	if prompt == 0 || !cfg.LimitsOf(engine.ServerPrefill).Rejects(prompt) {
		return nil // nothing to fit, or it fits
	}
	page := cfg.PageTokens
	cfg.PoolTokens = (prompt + 7 + page - 1) / page * page // max_req_input_len = pool - 1 - 5 > prompt
	if cfg.LimitsOf(engine.ServerPrefill).Rejects(prompt) {
		return fmt.Errorf("a %s-token prompt does not fit the %s-token context however large the pool", engine.Thousands(int64(prompt)), engine.Thousands(int64(cfg.ContextTokens)))
	}
	return s.SetNumber(Pool, engine.Thousands(int64(cfg.PoolTokens)))
}
