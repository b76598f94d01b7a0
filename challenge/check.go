package challenge

import (
	"cmp"
	"fmt"
	"strings"

	"kvleak/engine"
)

// Answer is the reader's answer to a challenge's Question.
type Answer string

const (
	NoAnswer Answer = ""
	Can      Answer = "can"    // it can be done
	Cannot   Answer = "cannot" // it cannot be done
)

// ParseAnswer reads an answer as a flag or a stored progress gives it.
func ParseAnswer(s string) (Answer, error) {
	switch a := Answer(s); a {
	case NoAnswer, Can, Cannot:
		return a, nil
	}
	return NoAnswer, fmt.Errorf("answer %q: must be %q or %q", clip(s), Can, Cannot)
}

// Challenge is one rung of the ladder.
type Challenge struct {
	Title string
	// Goal is what the reader must make the engine do, in words.
	Goal string
	// Preset and Ops are the starting run: the preset's settings and the
	// first Ops operations of its run (Start).
	Preset string
	Ops    int
	// Free are the settings the reader may change and still solve it, by
	// their link keys; every other setting is held as the start has it.
	Free []string
	// Question is asked of the reader of a "prove it cannot be done"
	// challenge, which a right answer solves only with the run's proof.
	Question string
	// Hints, in the order the page reveals them.
	Hints []string
	// Lesson is what solving it shows, said once it is solved.
	Lesson string

	goal func(e *engine.Engine, a Answer) result
}

// result is a goal's finding: the request that met it, or what is missing.
type result struct {
	request int
	miss    string // "" when the goal is met
}

func met(request int) result            { return result{request: request} }
func missing(f string, a ...any) result { return result{miss: fmt.Sprintf(f, a...)} }

// Start is the challenge's starting run.
func (c Challenge) Start() (engine.Config, []engine.Op, error) {
	p, ok := engine.PresetBySlug(c.Preset)
	if !ok || c.Ops > len(p.Ops) {
		return engine.Config{}, nil, fmt.Errorf("challenge %q starts from preset %q, which has no %d operations", c.Title, c.Preset, c.Ops)
	}
	return p.Config, p.Ops[:c.Ops], nil
}

// Rules says which settings the challenge holds and which are the reader's.
func (c Challenge) Rules() string {
	if len(c.Free) == 0 {
		return "Play with the starting settings: a run that changes them does not count."
	}
	var free []string
	for _, s := range settings {
		if contains(c.Free, s.key) {
			free = append(free, s.name)
		}
	}
	return "You may change " + join(free) + "; the other settings stay as they start."
}

// Verdict is what Check found.
type Verdict struct {
	// Met: the run (and the answer) meet the goal; Solved: within the
	// rules too.
	Met, Solved bool
	// Request is the request that met the goal (0 when none did).
	Request int
	// Says what met the goal, or what the run still lacks.
	Says string
	// Broken are the held settings the run changed; Changed the free ones.
	Broken, Changed []string
}

// Check judges a run — the engine after it, with its configuration — and
// the reader's answer against the challenge.
func (c Challenge) Check(e *engine.Engine, a Answer) Verdict {
	start, _, err := c.Start()
	if err != nil {
		return Verdict{Says: err.Error()}
	}
	r := c.goal(e, a)
	v := Verdict{Met: r.miss == "", Request: r.request, Says: r.miss}
	if v.Met {
		v.Says = fmt.Sprintf("Request r%d meets the goal.", r.request)
		if r.request == 0 {
			v.Says = "The run and your answer meet the goal."
		}
	}
	for _, s := range settings {
		if s.of(e.Config()) == s.of(start) {
			continue
		}
		if contains(c.Free, s.key) {
			v.Changed = append(v.Changed, s.name)
		} else {
			v.Broken = append(v.Broken, s.name)
		}
	}
	v.Solved = v.Met && len(v.Broken) == 0
	return v
}

// Fair says whether a run with changed settings still counts, "" when the
// run kept the starting settings.
func (v Verdict) Fair() string {
	switch {
	case len(v.Broken) > 0:
		return "You changed " + join(v.Broken) + ", which this challenge holds: a run that meets the goal this way does not count. Start over, or set " + plural(len(v.Broken), "it", "them") + " back."
	case len(v.Changed) > 0:
		return "You changed " + join(v.Changed) + ", which this challenge leaves to you: a solution still counts."
	}
	return ""
}

// setting is one setting of the engine as the rules compare it.
type setting struct {
	key, name string
	of        func(engine.Config) string
}

// settings are the Config fields a challenge's rules can hold, by the
// link's keys.
var settings = []setting{
	{"ctx", "the context length", func(c engine.Config) string { return fmt.Sprint(c.ContextTokens) }},
	{"pool", "prefill's pool", func(c engine.Config) string { return fmt.Sprint(c.PoolTokens) }},
	{"dpool", "decode's pool", func(c engine.Config) string { return fmt.Sprint(c.DecodePoolTokens) }},
	{"page", "the page size", func(c engine.Config) string { return fmt.Sprint(c.PageTokens) }},
	{"mode", "the admission mode", func(c engine.Config) string { return string(c.Mode) }},
	{"door", "what the door retires", func(c engine.Config) string { return c.Retires().String() }},
	{"alloc", "the allocator", func(c engine.Config) string { return string(cmp.Or(c.Allocator, engine.Sorted)) }},
	{"cancel", "the router's cancel policy", func(c engine.Config) string { return string(c.Cancel) }},
	{"scrub", "scrub-on-free", func(c engine.Config) string { return fmt.Sprint(c.ScrubOnFree) }},
	{"wcheck", "the writer check", func(c engine.Config) string { return fmt.Sprint(c.CheckWriter) }},
	{"gw", "the AI gateway", func(c engine.Config) string { return string(cmp.Or(c.Gateway, engine.GatewayOff)) }},
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// join is "a", "a and b", "a, b and c".
func join(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clip shortens untrusted text for a message.
func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
