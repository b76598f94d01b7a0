package replay

import (
	"fmt"
	"time"

	"kvleak/engine"
	"kvleak/permalink"
)

// Report is a replay's result in the words and figures `kvleak replay`
// prints and the page's Replay panel shows (web/model.ReplayView): the
// page and the terminal say the same.
type Report struct {
	Summary  string // what was replayed, over how long, how many lines skipped
	Settings string // the deployment it was replayed at
	Rows     []Row
	// Pairs are the first MaxReportPairs victim → recipient pairs, the most
	// responses first; PairsNote says how many of how many.
	Pairs     []Pair
	PairsNote string
	// FirstLeak describes the first leaked response, and FirstLeakLink is
	// the query ("?v=4&…") of a run that shows it (Result.LeakLink); both
	// "" when none leaked.
	FirstLeak, FirstLeakLink string
	Skipped                  []string // the kept skipped lines' messages
	SkippedMore              int      // skipped lines without a kept message
	Notes                    []string
}

// Row is one line of the two doors' table. Leak marks a row whose
// vulnerable figure counts leaked KV and is not zero.
type Row struct {
	Name, Vulnerable, Fixed string
	Leak                    bool
}

// MaxReportPairs is how many victim → recipient pairs a report lists.
const MaxReportPairs = 10

// NewReport is res in words; view are the view keys the first leak's link
// carries after its run (the page's embed keeps its own).
func NewReport(res Result, view ...string) Report {
	th := func(n int64) string { return engine.Thousands(n) }
	v, f := res.Vulnerable, res.Fixed
	c := res.Config
	out := Report{
		Summary: fmt.Sprintf("Replayed %s requests (%s) over %s; %s %s skipped.", th(int64(v.Requests)), res.Format,
			res.Span.Round(time.Millisecond), th(int64(res.Skip.Count)), plural(res.Skip.Count, "line", "lines")),
		Settings: fmt.Sprintf("Settings: context %s, prefill pool %s, decode pool %s, page %s tokens, decode's reserve %s tokens, allocator %s, scrub on free %s; the fixed door: %s%s.",
			th(int64(c.ContextTokens)), th(int64(c.PoolTokens)), th(int64(c.DecodePoolTokens)), th(int64(c.PageTokens)), th(int64(c.ReservedDecodeTokens)), c.Allocator, onOff(c.ScrubOnFree), fixName(res.Fix), instancesText(res.Instances)),
		Notes:       res.Notes,
		SkippedMore: res.Skip.Count - len(res.Skip.First),
	}
	wait := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	out.Rows = []Row{
		{"requests", th(int64(v.Requests)), th(int64(f.Requests)), false},
		{"HTTP 200", th(int64(v.OK)), th(int64(f.OK)), false},
		{"HTTP 400", th(int64(v.Rejected)), th(int64(f.Rejected)), false},
		{"HTTP 500", th(int64(v.Failed)), th(int64(f.Failed)), false},
		{"in the window", th(int64(v.Window)), th(int64(f.Window)), false},
		{"leaked responses", th(int64(v.Leaked)), th(int64(f.Leaked)), v.Leaked > 0},
		{"pages of others' KV", th(v.LeakedPages), th(f.LeakedPages), v.LeakedPages > 0},
		{"tokens of others' KV", th(v.LeakedTokens), th(f.LeakedTokens), v.LeakedTokens > 0},
		{"tenants exposed", th(int64(v.ExposedTenants)), th(int64(f.ExposedTenants)), v.ExposedTenants > 0},
		{"longest prealloc wait", wait(v.LongestWait), wait(f.LongestWait), false},
	}
	if len(v.Pairs) > 0 {
		out.Pairs = v.Pairs[:min(len(v.Pairs), MaxReportPairs)]
		out.PairsNote = fmt.Sprintf("%s of %s", th(int64(len(out.Pairs))), th(int64(v.PairsTotal)))
	}
	if l := v.FirstLeak; l != nil {
		out.FirstLeak = fmt.Sprintf("Line %s at %s, tenant %s, a %s-token prompt, carrying %s tokens of tenant %s's KV",
			th(int64(l.Line)), l.At.Round(time.Millisecond), l.Tenant, th(int64(l.PromptTokens)), th(l.Victims[0].Tokens), l.Victims[0].Victim)
		if w := l.Victims[0].Where(); w != "" {
			out.FirstLeak += ", " + w
		}
		out.FirstLeak += "."
		out.FirstLeakLink = res.LeakLink(view...)
	}
	for _, s := range res.Skip.First {
		out.Skipped = append(out.Skipped, s.Error())
	}
	return out
}

// LeakLink is the query of a run that shows the first leak at the
// replay's settings, as `kvleak replay` prints it, followed by view's keys;
// "" when nothing leaked.
func (res Result) LeakLink(view ...string) string {
	ops := res.Vulnerable.FirstLeak.Ops(res.Config)
	if ops == nil {
		return ""
	}
	return "?" + permalink.EncodeLink(permalink.LinkState{Config: res.Config, Ops: ops}, view...)
}

// instancesText names the instances, through more than one.
func instancesText(n int) string {
	if n <= 1 {
		return ""
	}
	return fmt.Sprintf("; %s prefill/decode instances", engine.Thousands(int64(n)))
}

// fixName is the fixed door by the name the page's door chooser gives it
// (engine.Modes).
func fixName(m engine.Mode) string {
	for _, i := range engine.Modes() {
		if i.Mode == m && i.Name != "" {
			return i.Name
		}
	}
	return string(m)
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
