package model

import (
	"math"
	"slices"
	"sort"

	"kvleak/engine"
)

// MaxMapRegions is how many spans a pool map names at most: a pool after
// many requests has hundreds, and the grid below shows them all.
const MaxMapRegions = 8

// MapRegions are the spans of a pool that matter, named in words beside its
// map, so that a reader who cannot tell its colours apart gets the same
// story: whose KV each span holds and what it is at the step.
type MapRegions struct {
	// Window is decode's read window for the last response, in words (""
	// on prefill's pool, or before any response).
	Window   string
	Items    []MapRegion // in page order
	Unlisted string      // the spans not named, in words ("" when none)
}

// MapRegion is one span of pages of the same kind.
type MapRegion struct {
	First, Last int
	Pages       string // "pages 1–4,095", as the response body names pages (pagesWords)
	Whose       string // "tenant A · r1", as the response body says it (whoseKV)
	Now         string // what they are at the step, and who read them: "stale (freed, still holding KV), read by r4 (tenant B)", "free", …
	Leaked      bool   // read into the last response by another tenant
	State       engine.PageState
	Tenant      int // the owner's colour, as the grid's cells have it (CellView.Tenant); -1 for none
}

// region is a span before it is put in words: the pages of one writer and
// one holder, and whether the last response read them.
type region struct {
	first, last    int
	writer, holder int
	window, leaked bool
}

func (r region) pages() int { return r.last - r.first + 1 }

// mapRegions names the spans of snap's pool. On decode's pool the last
// response's read window is cut out of its neighbours and named as the
// response body names it; the spans the pool holds around it follow the
// page table's runs (engine.Snapshot.Spans), neighbours of the same words
// merged. Past MaxMapRegions the leaked and read spans are kept first, then
// the largest.
func mapRegions(snap *engine.Snapshot, e *engine.Engine, tenants []string) MapRegions {
	var out MapRegions
	resp, read := snap.LastResponse()
	read = read && snap.Server() == engine.ServerDecode && len(resp.ReadPages) > 0
	var window, leaked []engine.Run
	if read {
		window, leaked = sortedRuns(resp.ReadPages), sortedRuns(resp.LeakedPages)
		out.Window = "decode's read window for " + requestOf(resp.Request, resp.Tenant) + ": " + pagesWords(resp.ReadPages)
	}
	var regs []region
	win, leak := runCursor{runs: window}, runCursor{runs: leaked}
	for lo := 0; lo < snap.Pages(); {
		// The pages up to the next edge of the window or of a leaked run
		// are all in them or all out.
		hi := min(win.edgeAfter(lo), leak.edgeAfter(lo), snap.Pages())
		inWin, inLeak := win.holds(lo), leak.holds(lo)
		snap.Spans(lo, hi-1, func(sp engine.Span) bool {
			r := region{first: sp.First, last: sp.Last, writer: sp.Writer, holder: sp.Holder, window: inWin, leaked: inLeak}
			if k := len(regs) - 1; k >= 0 && regs[k].last+1 == r.first && sameWords(regs[k], r) {
				regs[k].last = r.last
				return true
			}
			regs = append(regs, r)
			return true
		})
		lo = hi
	}
	kept := regs
	if len(regs) > MaxMapRegions {
		kept = mostTelling(regs, MaxMapRegions-1)
		n := snap.Pages()
		for _, r := range kept {
			n -= r.pages()
		}
		out.Unlisted = engine.Thousands(int64(len(regs)-len(kept))) + " smaller spans of " + engine.Thousands(int64(n)) +
			" pages in all are not named here: zoom the grid to see them."
	}
	for _, r := range kept {
		out.Items = append(out.Items, r.words(e, tenants, resp))
	}
	return out
}

// mostTelling is the n regions a map names when it cannot name all, in
// page order: the leaked first, then those the last response read, then
// the largest.
func mostTelling(regs []region, n int) []region {
	keep := make([]bool, len(regs))
	for range n {
		best := -1
		for i, r := range regs {
			if !keep[i] && (best < 0 || tellsMore(r, regs[best])) {
				best = i
			}
		}
		keep[best] = true
	}
	out := make([]region, 0, n)
	for i, r := range regs {
		if keep[i] {
			out = append(out, r)
		}
	}
	return out
}

func tellsMore(a, b region) bool {
	switch {
	case a.leaked != b.leaked:
		return a.leaked
	case a.window != b.window:
		return a.window
	}
	return a.pages() > b.pages()
}

// runCursor walks runs sorted by page, for pages asked in rising order.
type runCursor struct {
	runs []engine.Run
	i    int
}

// skip moves past the runs that end at or before page id.
func (c *runCursor) skip(id int) {
	for c.i < len(c.runs) && c.runs[c.i].First+c.runs[c.i].Count <= id {
		c.i++
	}
}

// holds reports whether page id is in a run.
func (c *runCursor) holds(id int) bool {
	c.skip(id)
	return c.i < len(c.runs) && c.runs[c.i].First <= id
}

// edgeAfter is the first page after id where a run starts or ends.
func (c *runCursor) edgeAfter(id int) int {
	c.skip(id)
	switch {
	case c.i == len(c.runs):
		return math.MaxInt
	case c.runs[c.i].First > id:
		return c.runs[c.i].First
	}
	return c.runs[c.i].First + c.runs[c.i].Count
}

// words puts a region in words, as the response body would for the pages
// the last response read.
func (r region) words(e *engine.Engine, tenants []string, resp engine.Response) MapRegion {
	self := 0
	if r.window {
		self = resp.Request
	}
	owner := r.writer
	if owner == 0 {
		owner = r.holder
	}
	m := MapRegion{
		First: r.first, Last: r.last, Leaked: r.leaked, Tenant: slices.Index(tenants, e.TenantOf(owner)),
		Pages: pagesWords(engine.Pages{{First: r.first, Count: r.pages()}}),
		Whose: whoseKV(r.writer, e.TenantOf(r.writer), self),
	}
	if owner == 0 {
		m.Tenant = -1
	}
	reader := requestOf(resp.Request, resp.Tenant)
	switch {
	case r.window && r.holder == resp.Request:
		m.Now, m.State = "held and read by "+reader, engine.PageAllocated
	case r.holder != 0:
		m.Now, m.State = "held by "+requestOf(r.holder, e.TenantOf(r.holder)), engine.PageAllocated
	case r.writer != 0:
		m.Now, m.State = "stale (freed, still holding KV)", engine.PageStale
	default:
		m.Now, m.State = "free", engine.PageFree
	}
	if r.window && r.holder != resp.Request {
		m.Now += ", read by " + reader
	}
	if r.leaked {
		m.State = engine.PageLeaked
	}
	return m
}

// sameWords reports whether two neighbouring regions read the same.
func sameWords(a, b region) bool {
	return a.writer == b.writer && a.holder == b.holder && a.window == b.window && a.leaked == b.leaked
}

// sortedRuns is runs in page order.
func sortedRuns(p engine.Pages) []engine.Run {
	out := slices.Clone([]engine.Run(p))
	// sort.SliceStable, not slices.SortFunc: a sort instantiated per
	// element type costs the wasm its code (docs/performance.md).
	sort.SliceStable(out, func(i, j int) bool { return out[i].First < out[j].First })
	return out
}
