package model

import (
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
	cuts := []int{0, snap.Pages()}
	for _, r := range append(slices.Clip(window), leaked...) {
		cuts = append(cuts, r.First, r.First+r.Count)
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var regs []region
	for i := 0; i+1 < len(cuts) && cuts[i] < snap.Pages(); i++ {
		win, leak := within(window, cuts[i]), within(leaked, cuts[i])
		snap.Spans(cuts[i], cuts[i+1]-1, func(sp engine.Span) bool {
			r := region{first: sp.First, last: sp.Last, writer: sp.Writer, holder: sp.Holder, window: win, leaked: leak}
			if k := len(regs) - 1; k >= 0 && regs[k].last+1 == r.first && sameWords(regs[k], r) {
				regs[k].last = r.last
				return true
			}
			regs = append(regs, r)
			return true
		})
	}
	kept := regs
	if len(regs) > MaxMapRegions {
		// sort.Slice, not slices.SortFunc: each element type slices sorts
		// instantiates its sorting code again in the wasm (about 20 KB here).
		kept = slices.Clone(regs)
		sort.SliceStable(kept, func(i, j int) bool {
			a, b := kept[i], kept[j]
			switch {
			case a.leaked != b.leaked:
				return a.leaked
			case a.window != b.window:
				return a.window
			}
			return a.pages() > b.pages()
		})
		kept = kept[:MaxMapRegions-1]
		sort.Slice(kept, func(i, j int) bool { return kept[i].first < kept[j].first })
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
	slices.SortFunc(out, func(a, b engine.Run) int { return a.First - b.First })
	return out
}

// within reports whether page id is in runs, sorted by page.
func within(runs []engine.Run, id int) bool {
	i := sort.Search(len(runs), func(i int) bool { return runs[i].First+runs[i].Count > id })
	return i < len(runs) && runs[i].First <= id
}
