package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"kvleak/engine"
	"kvleak/permalink"
)

// EndEarly's values besides "cancel:<stage>".
const (
	EndNever = "never"
	EndFail  = "fail-transfer"
	endAt    = "cancel:"
)

// EndOptions are the ways a request can end, in the order the form lists
// them.
func EndOptions() []Option {
	opts := []Option{{EndNever, "runs to the end"}}
	for _, st := range engine.CancelStages {
		opts = append(opts, Option{endAt + string(st), "client cancels at " + string(st)})
	}
	return append(opts, Option{EndFail, "KV transfer fails"})
}

// Tenants lists the form's tenants; Tenant is the selected one.
func (s *Session) Tenants() []string { return s.tenants }

// Tenant is the tenant the next request is sent as.
func (s *Session) Tenant() string { return s.tenant }

// End is how the next request ends (an EndOptions value).
func (s *Session) End() string { return s.end }

// SetText stores what a text field of the request form shows: the prompt
// length, the content or the new tenant name. Send and Rename check it.
func (s *Session) SetText(f Field, text string) error {
	switch f {
	case PromptTokens, Secret, TenantName, MaxNew:
		s.text[f.index()] = text
		return nil
	}
	return fmt.Errorf("%s is not a text field of the request form", f)
}

// SetEnd picks how the next request ends.
func (s *Session) SetEnd(v string) error {
	s.errs[EndEarly.index()] = ""
	if !slices.ContainsFunc(EndOptions(), func(o Option) bool { return o.Value == v }) {
		s.errs[EndEarly.index()] = fmt.Sprintf("unknown choice %q", permalink.Clip(v))
		return errors.New(s.errs[EndEarly.index()])
	}
	s.end = v
	return nil
}

// prefill readies the form to repeat the run's last request.
func (s *Session) prefill(ops []engine.Op) {
	s.end = EndNever
	for i := len(ops) - 1; i >= 0; i-- {
		if last := ops[i].Send; last != nil {
			s.tenant = last.Tenant
			s.text[PromptTokens.index()] = engine.Thousands(int64(last.PromptTokens))
			s.text[Secret.index()] = last.Content
			s.text[MaxNew.index()] = ""
			if last.MaxNewTokens > 0 {
				s.text[MaxNew.index()] = engine.Thousands(int64(last.MaxNewTokens))
			}
			return
		}
	}
}

// request builds the request the form describes, or says what is wrong.
func (s *Session) request() (engine.Request, error) {
	r := engine.Request{Tenant: s.tenant, Content: s.Text(Secret)}
	n, err := permalink.ParseCount(s.Text(PromptTokens))
	if err != nil {
		return r, &engine.RequestError{Field: "tokens", Msg: "prompt length: " + err.Error()}
	}
	r.PromptTokens = n
	if t := strings.TrimSpace(s.Text(MaxNew)); t != "" {
		m, err := permalink.ParseCount(t)
		if err != nil {
			return r, &engine.RequestError{Field: "maxNew", Msg: "max_new_tokens: " + err.Error()}
		}
		r.MaxNewTokens = m
	}
	switch {
	case s.end == EndFail:
		r.FailTransfer = true
	case strings.HasPrefix(s.end, endAt):
		r.CancelAt = engine.Stage(strings.TrimPrefix(s.end, endAt))
	}
	return r, r.Validate()
}

// requestField maps engine.RequestError fields to the form's.
var requestField = map[string]Field{"tenant": Tenant, "tokens": PromptTokens, "content": Secret, "cancelAt": EndEarly, "maxNew": MaxNew}

// Send runs the form's request. On error nothing changes but the message.
func (s *Session) Send() error {
	for _, f := range []Field{Tenant, PromptTokens, Secret, EndEarly, MaxNew} {
		s.errs[f.index()] = ""
	}
	r, err := s.request()
	if err == nil {
		_, err = s.eng.Send(r)
	}
	if err != nil {
		s.errs[errField(err).index()] = err.Error()
		return err
	}
	s.ops = append(s.ops, engine.SendOp(r))
	s.step, s.preset = 0, ""
	return nil
}

func errField(err error) Field {
	var re *engine.RequestError
	if errors.As(err, &re) {
		if f, ok := requestField[re.Field]; ok {
			return f
		}
	}
	return PromptTokens
}

// Settle ends a lingering request's deferred release.
func (s *Session) Settle(request int, o engine.Outcome) error {
	if err := s.eng.Settle(request, o); err != nil {
		s.notice = err.Error()
		return err
	}
	s.ops = append(s.ops, engine.SettleOp(request, o))
	s.step = 0
	return nil
}

// AddTenant adds the next free single-letter tenant and selects it.
func (s *Session) AddTenant() error {
	s.errs[Tenant.index()] = ""
	if len(s.tenants) >= engine.MaxTenants {
		s.errs[Tenant.index()] = fmt.Sprintf("at most %d tenants", engine.MaxTenants)
		return errors.New(s.errs[Tenant.index()])
	}
	for c := 'A'; ; c++ {
		name := string(c)
		if c > 'Z' {
			name = fmt.Sprintf("T%d", c-'Z')
		}
		if !slices.Contains(s.tenants, name) {
			s.tenants = append(s.tenants, name)
			s.tenant = name
			return nil
		}
	}
}

// Rename renames the selected tenant to the TenantName field's text.
// Requests already sent keep the name they were sent with: the log is
// history. On success the field is emptied.
func (s *Session) Rename() error {
	name := strings.TrimSpace(s.Text(TenantName))
	s.errs[TenantName.index()] = ""
	err := engine.Request{Tenant: name, PromptTokens: 1}.Validate()
	if err == nil && slices.Contains(s.tenants, name) && name != s.tenant {
		err = fmt.Errorf("a tenant named %q already exists", name)
	}
	if err != nil {
		s.errs[TenantName.index()] = "new name: " + err.Error()
		return err
	}
	s.tenants = slices.Clone(s.tenants) // views may hold the old list: never edit it in place
	for i, t := range s.tenants {
		if t == s.tenant {
			s.tenants[i] = name
		}
	}
	s.tenant, s.text[TenantName.index()] = name, ""
	return nil
}

// SelectTenant picks a tenant from the list.
func (s *Session) SelectTenant(name string) error {
	if !slices.Contains(s.tenants, name) {
		s.errs[Tenant.index()] = fmt.Sprintf("unknown tenant %q", permalink.Clip(name))
		return errors.New(s.errs[Tenant.index()])
	}
	s.tenant, s.errs[Tenant.index()] = name, ""
	return nil
}
