package model

import (
	"errors"
	"strings"

	"kvleak/deploycheck"
	"kvleak/engine"
)

// DeployLink is the query string (without "?") that replays a checked
// prefill/decode pair in the playground: its pools, page size and
// releases, and one request inside the window, or just past prefill's
// limit when the window is closed (deploycheck.Verdict.Replay). It carries
// numbers and the playground's own tenants, never the pasted text.
func DeployLink(prefill, decode deploycheck.Server) (string, error) {
	v, err := deploycheck.Check(prefill, decode)
	if err != nil {
		return "", err
	}
	return replayLink(v)
}

func replayLink(v deploycheck.Verdict) (string, error) {
	r, err := v.Replay()
	if err != nil {
		return "", err
	}
	return EncodeLink(LinkState{Config: r.Config, Ops: r.Ops}), nil
}

// DeployView is what the "Check your deployment" panel shows for its two
// boxes: the verdict's lines and the replay link, or the one line that
// says what is wrong with a box.
type DeployView struct {
	// Status is the verdict's first word; "" when a box is refused.
	Status deploycheck.Status
	Lines  []string
	// Box names the box at fault when a box is refused ("" for both, or
	// for none), and Problem is the refusal without the box's name.
	Box, Problem string
	// Link is the replay's query string; "" when there is none, and
	// LinkNote then says why. Otherwise LinkNote says what the replay sends.
	Link, LinkNote string
	// Settings are the pair's settings for a request log's replay; nil
	// when refused (LinkNote then says why).
	Settings *ServerSettings
}

// ServerSettings are a checked pair's settings as a request log is
// replayed at them (deploycheck.Verdict.Settings): the Replay panel's
// "Replay at these servers' settings" and kvleak replay -prefill -decode.
type ServerSettings struct {
	Config engine.Config
	// Verdict is the check's headline; Notes say, in sentences, where one
	// engine's settings differ from the two servers'.
	Verdict string
	Notes   []string
}

// Describe says, for the Replay panel, which settings a log is replayed
// at from the Deploy check.
func (s *ServerSettings) Describe() string {
	c := s.Config
	return "The Deploy check holds two servers: context " + engine.Thousands(int64(c.ContextTokens)) + ", prefill pool " + engine.Thousands(int64(c.PoolTokens)) +
		", decode pool " + engine.Thousands(int64(c.DecodePoolTokens)) + " tokens, pages of " + engine.Thousands(int64(c.PageTokens)) +
		", decode's reserve " + engine.Thousands(int64(c.ReservedDecodeTokens)) + " tokens."
}

// ReplayNotes are the notes a replay at these settings begins with.
func (s *ServerSettings) ReplayNotes() []string {
	return append([]string{"The settings are the two servers' pasted in the Deploy check: " + s.Verdict + "."}, s.Notes...)
}

// CheckDeployment checks what was pasted in the two boxes.
func CheckDeployment(prefill, decode string) DeployView {
	v, err := deploycheck.CheckText(prefill, decode)
	if err != nil {
		view := DeployView{Lines: []string{err.Error()}, Problem: err.Error()}
		var ie *deploycheck.InputError
		if errors.As(err, &ie) {
			view.Box, view.Problem = ie.Box, ie.Msg
		}
		return view
	}
	view := DeployView{Status: v.Status, Lines: v.Lines()}
	if st, err := v.Settings(); err == nil {
		view.Settings = &ServerSettings{Config: st.Config, Verdict: view.Lines[0]}
		for _, n := range st.Notes {
			view.Settings.Notes = append(view.Settings.Notes, strings.ToUpper(n[:1])+n[1:]+".")
		}
	}
	r, err := v.Replay()
	if err != nil {
		view.LinkNote = "No replay: the pair is " + err.Error() + "."
		return view
	}
	view.Link = EncodeLink(LinkState{Config: r.Config, Ops: r.Ops})
	what := "one prompt just past prefill's limit"
	if r.InWindow {
		what = "one prompt inside the window"
	}
	view.LinkNote = "your pools and page size, tenant A's secret, then " + what + " (" + engine.Thousands(int64(r.Prompt)) + " tokens)."
	for _, n := range r.Notes {
		view.LinkNote += " Note: " + n + "."
	}
	return view
}
