package deploycheck

import (
	"errors"
	"strings"

	"kvleak/engine"
	"kvleak/permalink"
)

// Report is a check of two servers as the page's "Check your deployment"
// panel and kvleak check show it: the verdict's lines and the link that
// replays the pair in the playground, or the one line that says what is
// wrong with a box (a file, in the terminal).
type Report struct {
	// Status is the verdict's first word; "" when a box is refused.
	Status Status
	Lines  []string
	// Box names the box at fault when a box is refused ("" for both, or
	// for none), and Problem is the refusal without the box's name.
	Box, Problem string
	// Link is the replay's query string (without "?"): its pools, page size
	// and releases, and one request inside the window, or just past
	// prefill's limit when the window is closed (Verdict.Replay). It
	// carries numbers and the playground's own tenants, never the pasted
	// text. "" when there is none, and LinkNote then says why; otherwise
	// LinkNote says what the replay sends.
	Link, LinkNote string
	// Settings are the pair's settings for a request log's replay; nil
	// when refused (LinkNote then says why).
	Settings *ServerSettings
}

// ServerSettings are a checked pair's settings as a request log is
// replayed at them (Verdict.Settings), with the verdict's headline and the
// notes as sentences: the Replay panel's "Replay at these servers'
// settings" and kvleak replay -prefill -decode.
type ServerSettings struct {
	Config engine.Config
	// Verdict is the check's headline; Notes say, in sentences, where one
	// engine's settings differ from the two servers'.
	Verdict string
	Notes   []string
}

// CheckReport checks what was pasted in the two boxes, or read from the
// two files.
func CheckReport(prefill, decode string) Report {
	v, err := CheckText(prefill, decode)
	if err != nil {
		report := Report{Lines: []string{err.Error()}, Problem: err.Error()}
		var ie *InputError
		if errors.As(err, &ie) {
			report.Box, report.Problem = ie.Box, ie.Msg
		}
		return report
	}
	report := Report{Status: v.Status, Lines: v.Lines()}
	if st, err := v.Settings(); err == nil {
		report.Settings = &ServerSettings{Config: st.Config, Verdict: report.Lines[0]}
		for _, n := range st.Notes {
			report.Settings.Notes = append(report.Settings.Notes, strings.ToUpper(n[:1])+n[1:]+".")
		}
	}
	r, err := v.Replay()
	if err != nil {
		report.LinkNote = "No replay: the pair is " + err.Error() + "."
		return report
	}
	report.Link = permalink.EncodeLink(permalink.LinkState{Config: r.Config, Ops: r.Ops})
	what := "one prompt just past prefill's limit"
	if r.InWindow {
		what = "one prompt inside the window"
	}
	report.LinkNote = "your pools and page size, tenant A's secret, then " + what + " (" + engine.Thousands(int64(r.Prompt)) + " tokens)."
	for _, n := range r.Notes {
		report.LinkNote += " Note: " + n + "."
	}
	return report
}
