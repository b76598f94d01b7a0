package engine

import "strings"

// Run is Count consecutive page ids starting at First.
type Run struct {
	First int `json:"first"`
	Count int `json:"count"`
}

// Pages is a list of page ids kept as runs, in slot order. Runs keep a
// 681,280-page prompt to a handful of entries in the log.
type Pages []Run

// Len is the number of pages.
func (p Pages) Len() int {
	n := 0
	for _, r := range p {
		n += r.Count
	}
	return n
}

// Each calls f for every page id, in order, until f returns false.
func (p Pages) Each(f func(id int) bool) {
	for _, r := range p {
		for id := r.First; id < r.First+r.Count; id++ {
			if !f(id) {
				return
			}
		}
	}
}

// Contains reports whether id is one of the pages.
func (p Pages) Contains(id int) bool {
	for _, r := range p {
		if id >= r.First && id < r.First+r.Count {
			return true
		}
	}
	return false
}

// Head is the first n pages.
func (p Pages) Head(n int) Pages {
	var out Pages
	for _, r := range p {
		if n <= 0 {
			break
		}
		c := min(r.Count, n)
		out = append(out, Run{r.First, c})
		n -= c
	}
	return out
}

// Tail is the pages after the first n.
func (p Pages) Tail(n int) Pages {
	var out Pages
	for _, r := range p {
		if n >= r.Count {
			n -= r.Count
			continue
		}
		out = append(out, Run{r.First + n, r.Count - n})
		n = 0
	}
	return out
}

// add appends one page id, extending the last run when it is contiguous.
func (p Pages) add(id int) Pages { return p.addRun(Run{id, 1}) }

// addRun appends a run, extending the last one when they are contiguous.
func (p Pages) addRun(r Run) Pages {
	if k := len(p) - 1; k >= 0 && p[k].First+p[k].Count == r.First {
		p[k].Count += r.Count
		return p
	}
	return append(p, r)
}

// PageID is the page id SGLang would give the page at index i of a pool:
// PagedTokenToKVPoolAllocator keeps page 0 for padded dummy writes and
// hands out pages 1 to num_pages (free_pages = arange(1, num_pages + 1)),
// so the engine's index 0 is SGLang's page 1. Counts do not change; every
// page id the page shows goes through here.
func PageID(i int) int { return i + 1 }

// String lists the pages compactly by SGLang's page ids: "1–8", "4, 10–12".
func (p Pages) String() string {
	if len(p) == 0 {
		return "none"
	}
	parts := make([]string, 0, min(len(p), 4))
	for i, r := range p {
		if i == 3 {
			parts = append(parts, "… ("+th(len(p)-3)+" more runs)")
			break
		}
		if r.Count == 1 {
			parts = append(parts, th(PageID(r.First)))
		} else {
			parts = append(parts, th(PageID(r.First))+"–"+th(PageID(r.First+r.Count-1)))
		}
	}
	return strings.Join(parts, ", ")
}
