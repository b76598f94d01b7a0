package engine

import "slices"

// noRequest marks a page that nobody holds, or that holds no content.
const noRequest = 0

type mutKind uint8

const (
	mutAlloc mutKind = iota + 1
	mutWrite
	mutFree
	mutScrub
)

// mutation is one change to who holds and who last wrote some pages of one
// server's pool. A live run and a replay both go through pageTable.change,
// so they cannot drift.
type mutation struct {
	kind   mutKind
	server serverIndex
	pages  Pages
	req    int32
	// tokens is how many positions a write fills from the start of pages
	// (0: all of them); the last page then keeps what it held past them —
	// or, when src is set, takes src's positions past them: a transfer
	// copies whole pages, the tail of the sender's last page with them.
	tokens int
	src    positions
	// partials are the pages whose positions hold more than one writer's
	// KV before or after the change, with both (see positions).
	partials []partialChange
	// prev is what the change overwrote, page by page in order, kept in
	// runs: what undo puts back, so that a step back costs the runs the
	// step touched, not a replay of the whole log.
	prev []valueRun
}

// valueRun is n pages in a row whose changed field held v.
type valueRun struct{ v, n int32 }

// pageTable is, for every page, the request that holds it and the request
// that wrote its first position, kept as runs: a 900,000-page reservation
// is one entry, so every change, undo, copy and summary costs the runs it
// touches (and a binary search), never the pages. Requests are numbered
// from 1, so 0 means none. A page whose positions hold more than one
// writer's KV (a write that ended inside it) is also in partial.
//
// A sorted slice, not a tree: a change splices one slice, and the table
// holds a few thousand runs at most (docs/performance.md), so the copy the
// splice makes costs less than a tree's pointers would.
type pageTable struct {
	runs       []pageRun // by start; runs[0].start is 0; neighbours differ
	pages      int
	partial    map[int32]positions
	pageTokens int
	held       int // pages some request holds
	stale      int // unheld pages that still hold some request's KV
	spare      []pageRun
}

// pageRun is the pages from start up to the next run's start, all held by
// holder and first written by writer.
type pageRun struct{ start, holder, writer int32 }

func newPageTable(pages, pageTokens int) pageTable {
	return pageTable{runs: []pageRun{{}}, pages: pages, partial: map[int32]positions{}, pageTokens: pageTokens}
}

// clone is a copy that shares nothing with t.
func (t pageTable) clone() pageTable {
	t.runs, t.partial, t.spare = slices.Clone(t.runs), cloneMap(t.partial), nil
	return t
}

func cloneMap(m map[int32]positions) map[int32]positions {
	out := make(map[int32]positions, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// find is the index of the run that holds page id.
func (t *pageTable) find(id int) int {
	i, _ := slices.BinarySearchFunc(t.runs, int32(id), func(r pageRun, id int32) int {
		switch {
		case r.start > id:
			return 1
		case r.start < id:
			return -1
		}
		return 0
	})
	if i == len(t.runs) || t.runs[i].start != int32(id) {
		i--
	}
	return i
}

// end is where run i stops: the next run's start, or the pool's end.
func (t *pageTable) end(i int) int {
	if i+1 < len(t.runs) {
		return int(t.runs[i+1].start)
	}
	return t.pages
}

// at is page id's holder and writer.
func (t *pageTable) at(id int) (holder, writer int32) {
	r := t.runs[t.find(id)]
	return r.holder, r.writer
}

// eachRun calls f for each run of pages lo..hi-1 (clipped to the range),
// in page order.
func (t *pageTable) eachRun(lo, hi int, f func(first, n int, holder, writer int32)) {
	if lo >= hi {
		return
	}
	for i := t.find(lo); i < len(t.runs) && int(t.runs[i].start) < hi; i++ {
		a, b := max(int(t.runs[i].start), lo), min(t.end(i), hi)
		f(a, b-a, t.runs[i].holder, t.runs[i].writer)
	}
}

// writerRuns calls f for each stretch of r's pages that one writer wrote,
// in page order: neighbouring runs that differ only in holder are one.
func (t *pageTable) writerRuns(r Run, f func(first, n int, writer int32)) {
	first, n, w := 0, 0, int32(-1)
	t.eachRun(r.First, r.First+r.Count, func(a, k int, _, writer int32) {
		if writer == w {
			n += k
			return
		}
		if n > 0 {
			f(first, n, w)
		}
		first, n, w = a, k, writer
	})
	if n > 0 {
		f(first, n, w)
	}
}

// apply makes m's change and returns m, with what it overwrote, for the
// event that logs it.
func (t *pageTable) apply(m mutation) mutation {
	if m.kind == mutWrite || m.kind == mutScrub {
		m.partials = t.partialChanges(m)
	}
	m.prev = t.change(m, true)
	t.setPartials(m.partials, true)
	return m
}

// redo makes a logged change again (SnapshotAt moving forward).
func (t *pageTable) redo(m mutation) {
	t.change(m, false)
	t.setPartials(m.partials, true)
}

// holds reports whether m changes holders (else writers).
func (m mutation) holds() bool { return m.kind == mutAlloc || m.kind == mutFree }

// change sets the field m changes on each of its runs of pages, keeping
// the counters; with record, it returns the values it overwrote.
func (t *pageTable) change(m mutation, record bool) []valueRun {
	var prev []valueRun
	v := m.req
	if m.kind == mutFree || m.kind == mutScrub {
		v = noRequest
	}
	for _, r := range m.pages {
		prev = t.assign(r.First, r.First+r.Count, m.holds(), v, record, prev)
	}
	return prev
}

// undo puts back what m overwrote (SnapshotAt moving back), a run of equal
// old values at a time, last page first, so that a page listed twice ends
// as it was before m.
func (t *pageTable) undo(m mutation) {
	t.setPartials(m.partials, false)
	run := len(m.prev)
	left := 0 // pages of m.prev[run] still to put back
	for ri := len(m.pages) - 1; ri >= 0; ri-- {
		r := m.pages[ri]
		for hi := r.Count; hi > 0; {
			if left == 0 {
				run--
				left = int(m.prev[run].n)
			}
			lo := max(0, hi-left)
			t.assign(r.First+lo, r.First+hi, m.holds(), m.prev[run].v, false, nil)
			left -= hi - lo
			hi = lo
		}
	}
}

// assign gives pages lo..hi-1 the holder v (holds) or the writer v: it
// replaces the runs they lie in with the runs they become, merged with
// their neighbours, in one splice. With record it appends what each page
// held to prev, in runs.
func (t *pageTable) assign(lo, hi int, holds bool, v int32, record bool, prev []valueRun) []valueRun {
	if lo >= hi {
		return prev
	}
	i, j := t.find(lo), t.find(hi-1)
	from, to := max(i-1, 0), min(j+2, len(t.runs))
	out := t.spare[:0]
	for k := from; k < i; k++ {
		out = append(out, t.runs[k])
	}
	if s := int(t.runs[i].start); s < lo {
		out = appendRun(out, pageRun{t.runs[i].start, t.runs[i].holder, t.runs[i].writer})
	}
	for k := i; k <= j; k++ {
		r := t.runs[k]
		a := max(int(r.start), lo)
		n := min(t.end(k), hi) - a
		nr := pageRun{int32(a), r.holder, v}
		old := r.writer
		if holds {
			nr, old = pageRun{int32(a), v, r.writer}, r.holder
		}
		if record {
			prev = appendValues(prev, old, n)
		}
		t.count(r, -n)
		t.count(nr, n)
		out = appendRun(out, nr)
	}
	if e := t.end(j); e > hi {
		out = appendRun(out, pageRun{int32(hi), t.runs[j].holder, t.runs[j].writer})
	}
	for k := j + 1; k < to; k++ {
		out = appendRun(out, t.runs[k])
	}
	t.splice(from, to, out)
	t.spare = out
	return prev
}

// count adds n pages of run r's kind to the counters: a page is held when
// it has a holder, stale when it has none but a writer.
func (t *pageTable) count(r pageRun, n int) {
	switch {
	case r.holder != noRequest:
		t.held += n
	case r.writer != noRequest:
		t.stale += n
	}
}

// appendRun adds r to runs, or nothing when it only continues the last.
func appendRun(runs []pageRun, r pageRun) []pageRun {
	if k := len(runs); k > 0 && runs[k-1].holder == r.holder && runs[k-1].writer == r.writer {
		return runs
	}
	return append(runs, r)
}

// appendValues adds n pages of value v to runs.
func appendValues(runs []valueRun, v int32, n int) []valueRun {
	if k := len(runs); k > 0 && runs[k-1].v == v {
		runs[k-1].n += int32(n)
		return runs
	}
	return append(runs, valueRun{v: v, n: int32(n)})
}

// splice replaces t.runs[from:to] with out, which never shares t.runs's
// array (it is t.spare). By hand, not slices.Replace: Replace and the
// Insert it calls are instantiated for pageRun alone, ~9 KB of the wasm's code.
func (t *pageTable) splice(from, to int, out []pageRun) {
	tail := len(t.runs) - to
	if grow := len(out) - (to - from); grow > 0 {
		t.runs = append(t.runs, out[:grow]...) // room only: overwritten below
	}
	copy(t.runs[from+len(out):], t.runs[to:to+tail])
	t.runs = t.runs[:from+len(out)+tail]
	copy(t.runs[from:], out)
}
