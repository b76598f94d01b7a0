package engine

import (
	"fmt"
	"strings"
)

// Side is one engine's result in a side-by-side comparison.
type Side struct {
	Mode     Mode      `json:"mode"`
	Last     *Response `json:"last,omitempty"`
	Metrics  Metrics   `json:"metrics"`
	Summary  string    `json:"summary"` // e.g. "200 + 7 leaked pages"
	Snapshot *Snapshot `json:"-"`
}

// Comparison is the same run through the vulnerable and the fixed door.
type Comparison struct {
	Vulnerable Side   `json:"vulnerable"`
	Fixed      Side   `json:"fixed"`
	Difference string `json:"difference"`
}

// Compare replays ops through both doors, everything else equal. An op that
// one door cannot take (a settle of a request that never lingered there) is
// skipped on that side only.
func Compare(cfg Config, ops []Op) (Comparison, error) {
	var c Comparison
	for _, m := range []Mode{Vulnerable, Fixed} {
		side := cfg
		side.Mode, side.Door = m, DoorFromMode // the two doors, as their modes retire
		e, err := New(side)
		if err != nil {
			return c, err
		}
		for _, op := range ops {
			if op.Send != nil {
				if err := e.Apply(op); err != nil {
					return c, err
				}
				continue
			}
			_ = e.Apply(op) // a settle may not apply to this side
		}
		s := Side{Mode: m, Metrics: e.Metrics(), Snapshot: e.Snapshot()}
		if r, ok := e.LastResponse(); ok {
			s.Last = &r
		}
		s.Summary = summarise(s)
		if m == Vulnerable {
			c.Vulnerable = s
		} else {
			c.Fixed = s
		}
	}
	c.Difference = fmt.Sprintf("vulnerable: %s; fixed: %s", c.Vulnerable.Summary, c.Fixed.Summary)
	return c, nil
}

// summarise describes a side's last response in a few words.
func summarise(s Side) string {
	r := s.Last
	if r == nil {
		return "no request yet"
	}
	var parts []string
	switch {
	case r.Leaked():
		parts = append(parts, fmt.Sprintf("%d + %s leaked %s", r.Status, th(r.LeakedPages.Len()), plural(r.LeakedPages.Len(), "page", "pages")))
	case r.WrongStatus:
		parts = append(parts, fmt.Sprintf("%d for a rejected request, %d zeroed %s", r.Status, r.ZeroedPages, plural(r.ZeroedPages, "page", "pages")))
	case r.Status != 200 && r.Allocated == 0:
		parts = append(parts, fmt.Sprintf("%d, nothing allocated", r.Status))
	default:
		parts = append(parts, fmt.Sprintf("%d, no leak", r.Status))
	}
	if s.Metrics.LeakedResponses > 1 || (s.Metrics.LeakedResponses == 1 && !r.Leaked()) {
		parts = append(parts, fmt.Sprintf("%s leaked %s over the run", th(s.Metrics.LeakedPages), plural(s.Metrics.LeakedPages, "page", "pages")))
	}
	return strings.Join(parts, "; ")
}
