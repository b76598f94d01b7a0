package challenge

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
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
	return NoAnswer, errors.New(`the answer must be "can" or "cannot"`)
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
	// Rules says so in words (HeldRules when Free is empty).
	Free  []string
	Rules string
	// Question is asked of the reader of a "prove it cannot be done"
	// challenge, which a right answer solves only with the run's proof.
	Question string
	// Hints, in the order the page reveals them.
	Hints []string
	// Lesson is what solving it shows, said once it is solved.
	Lesson string
	// Miss says what the run lacks; Near, of the request that came closest
	// (its %d), why it falls short.
	Miss, Near string

	goal func(e *engine.Engine, a Answer) result
}

// result is a goal's finding: the request that met it, or the one that
// came closest (Near says why), or why it falls short when Miss and Near
// do not say it.
type result struct {
	met, near int
	why       string
}

// Start is the challenge's starting run.
func (c Challenge) Start() (engine.Config, []engine.Op, error) {
	p, ok := engine.PresetBySlug(c.Preset)
	if !ok || c.Ops > len(p.Ops) {
		return engine.Config{}, nil, fmt.Errorf("challenge %q starts from preset %q, which has no %d operations", c.Title, c.Preset, c.Ops)
	}
	return p.Config, p.Ops[:c.Ops], nil
}

// HeldRules are the rules of a challenge that frees no setting.
const HeldRules = "Play with the starting settings: a run that changes them does not count."

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
	v := Verdict{Met: r.met > 0, Request: r.met, Says: c.Miss}
	switch {
	case v.Met:
		v.Says = "Request r" + strconv.Itoa(r.met) + " meets the goal."
	case r.why != "":
		v.Says = r.why
	case r.near > 0:
		v.Says = strings.Replace(c.Near, "%d", strconv.Itoa(r.near), 1)
	}
	diff := changed(e.Config(), start)
	for i, s := range settings {
		switch {
		case !diff[i]:
		case slices.Contains(c.Free, s.key):
			v.Changed = append(v.Changed, s.name)
		default:
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
		return "You changed " + join(v.Broken) + ", which this challenge holds: a run that meets the goal this way does not count. Start over, or set them back."
	case len(v.Changed) > 0:
		return "You changed " + join(v.Changed) + ", which this challenge leaves to you: a solution still counts."
	}
	return ""
}

// setting is one setting of the engine as the rules name it: its link key
// and its name in words.
type setting struct{ key, name string }

// settings are the Config fields a challenge's rules can hold, in
// changed's order.
var settings = []setting{
	{"ctx", "the context length"}, {"pool", "prefill's pool"}, {"dpool", "decode's pool"}, {"page", "the page size"},
	{"mode", "the admission mode"}, {"door", "what the door retires"}, {"alloc", "the allocator"},
	{"cancel", "the router's cancel policy"}, {"scrub", "scrub-on-free"}, {"wcheck", "the writer check"}, {"gw", "the AI gateway"},
}

// changed says which settings differ between a and b, in settings' order:
// a door that follows the mode by what it retires, an empty allocator or
// gateway as its default.
func changed(a, b engine.Config) []bool {
	return []bool{a.ContextTokens != b.ContextTokens, a.PoolTokens != b.PoolTokens, a.DecodePoolTokens != b.DecodePoolTokens,
		a.PageTokens != b.PageTokens, a.Mode != b.Mode, a.Retires() != b.Retires(),
		cmp.Or(a.Allocator, engine.Sorted) != cmp.Or(b.Allocator, engine.Sorted), a.Cancel != b.Cancel, a.ScrubOnFree != b.ScrubOnFree,
		a.CheckWriter != b.CheckWriter, cmp.Or(a.Gateway, engine.GatewayOff) != cmp.Or(b.Gateway, engine.GatewayOff)}
}

// join is "a", "a and b", "a, b and c".
func join(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
