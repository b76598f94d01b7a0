package engine

import (
	"fmt"
	"sort"
	"strings"
)

// positions is what one page's token positions hold, in runs from position
// 0 to the page's end: the provenance of a page that a write ended inside.
// A transfer of n tokens writes positions 0..n−1 of the reservation, so the
// page it ends in keeps, past them, whatever it held before — another
// tenant's stale KV, or nothing. Only such pages are kept here; a page one
// writer filled is its writer's alone.
type positions []positionRun

// positionRun is the positions up to End (exclusive) after the run before it.
type positionRun struct {
	Writer int32
	End    int32
}

// partialChange is one page's positions before and after a change; nil
// means the page held one writer's KV (or nothing) in every position.
type partialChange struct {
	id            int32
	before, after positions
}

// positionsOf is page id's positions, a single run when one writer (or
// none) holds them all.
func (t *pageTable) positionsOf(id int) positions {
	if p, ok := t.partial[int32(id)]; ok {
		return p
	}
	_, w := t.at(id)
	return positions{{Writer: w, End: int32(t.pageTokens)}}
}

// overwrite is p after its first n positions were written by w.
func (p positions) overwrite(w int32, n int32) positions {
	out := positions{{Writer: w, End: n}}
	for _, r := range p {
		if r.End <= n {
			continue
		}
		if r.Writer == out[len(out)-1].Writer {
			out[len(out)-1].End = r.End
			continue
		}
		out = append(out, r)
	}
	return out
}

// partialChanges lists the pages whose positions m changes from or to more
// than one writer: the page a write ends inside, and pages a full write or a
// scrub makes whole again. It looks only at those, so a write costs the
// partial pages, not the pages written.
func (t *pageTable) partialChanges(m mutation) []partialChange {
	var out []partialChange
	tail := int32(-1)
	if m.kind == mutWrite && m.tokens > 0 {
		if k := m.tokens % t.pageTokens; k != 0 {
			if rest := m.pages.Tail(m.tokens / t.pageTokens); len(rest) > 0 {
				tail = int32(rest[0].First)
			}
			if tail >= 0 {
				before := t.partial[tail]
				base := t.positionsOf(int(tail))
				if m.src != nil {
					base = m.src
				}
				after := base.overwrite(m.req, int32(k))
				if len(after) == 1 {
					after = nil
				}
				if before != nil || after != nil {
					out = append(out, partialChange{id: tail, before: before, after: after})
				}
			}
		}
	}
	// The pages written in full, or scrubbed, hold one writer from now on.
	whole := m.pages
	if m.kind == mutWrite && m.tokens > 0 {
		whole = m.pages.Head(m.tokens / t.pageTokens)
	}
	if len(t.partial) < whole.Len() {
		for id, p := range t.partial {
			if id != tail && whole.Contains(int(id)) {
				out = append(out, partialChange{id: id, before: p})
			}
		}
	} else {
		whole.Each(func(id int) bool {
			if p, ok := t.partial[int32(id)]; ok && int32(id) != tail {
				out = append(out, partialChange{id: int32(id), before: p})
			}
			return true
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].id < out[j].id }) // not slices: see sortRuns
	return out
}

// setPartials puts each page's positions after (forward) or before the change.
func (t *pageTable) setPartials(cs []partialChange, forward bool) {
	for _, c := range cs {
		p := c.before
		if forward {
			p = c.after
		}
		if p == nil {
			delete(t.partial, c.id)
		} else {
			t.partial[c.id] = p
		}
	}
}

// only reports whether w holds every position.
func (p positions) only(w int32) bool { return len(p) == 1 && p[0].Writer == w }

// describePositions says whose KV p holds from position from on:
// "tenant A's KV (r1) in positions 1–15", runs joined by "; ".
func (e *Engine) describePositions(p positions, from int) string {
	var parts []string
	start := 0
	for _, r := range p {
		lo, hi := max(start, from), int(r.End)
		start = int(r.End)
		if lo >= hi {
			continue
		}
		who := "nothing ever written"
		if r.Writer != noRequest {
			who = fmt.Sprintf("tenant %s's KV (r%d)", e.tenants[e.reqTenant[r.Writer-1]], r.Writer)
		}
		span := "position " + th(lo)
		if hi-lo > 1 {
			span = "positions " + th(lo) + "–" + th(hi-1)
		}
		parts = append(parts, who+" in "+span)
	}
	return strings.Join(parts, "; ")
}
