package engine

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
	// (0: all of them); the last page then keeps what it held past them.
	tokens int
	// partials are the pages whose positions hold more than one writer's
	// KV before or after the change, with both (see positions).
	partials []partialChange
	// prev is what the change overwrote, page by page in order, kept in
	// runs: what undo puts back, so that a step back costs the pages the
	// step touched, not a replay of the whole log.
	prev []valueRun
}

// valueRun is n pages in a row whose changed field held v.
type valueRun struct{ v, n int32 }

// pageTable is, for every page, the request that holds it and the request
// that wrote its first position. Requests are numbered from 1, so 0 means
// none. A page whose positions hold more than one writer's KV (a write that
// ended inside it) is also in partial.
type pageTable struct {
	holder, writer []int32
	partial        map[int32]positions
	pageTokens     int
	held           int // pages some request holds
	stale          int // unheld pages that still hold some request's KV
}

func newPageTable(pages, pageTokens int) pageTable {
	return pageTable{holder: make([]int32, pages), writer: make([]int32, pages), partial: map[int32]positions{}, pageTokens: pageTokens}
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

// change sets the field m changes on each of its pages, a run at a time,
// keeping the counters; with record, it returns the values it overwrote.
func (t *pageTable) change(m mutation, record bool) []valueRun {
	var prev []valueRun
	holds := m.kind == mutAlloc || m.kind == mutFree
	v := m.req
	if m.kind == mutFree || m.kind == mutScrub {
		v = noRequest
	}
	for _, r := range m.pages {
		h, w := t.holder[r.First:r.First+r.Count], t.writer[r.First:r.First+r.Count]
		field := w
		if holds {
			field = h
		}
		if record {
			for _, old := range field {
				prev = appendValue(prev, old)
			}
		}
		t.set(holds, h, w, 0, len(field), v)
	}
	return prev
}

// undo puts back what m overwrote (SnapshotAt moving back), a run of equal
// old values at a time, last page first, so that a page listed twice ends
// as it was before m.
func (t *pageTable) undo(m mutation) {
	t.setPartials(m.partials, false)
	holds := m.kind == mutAlloc || m.kind == mutFree
	run := len(m.prev)
	left := 0 // pages of m.prev[run] still to put back
	for ri := len(m.pages) - 1; ri >= 0; ri-- {
		r := m.pages[ri]
		h, w := t.holder[r.First:r.First+r.Count], t.writer[r.First:r.First+r.Count]
		for hi := r.Count; hi > 0; {
			if left == 0 {
				run--
				left = int(m.prev[run].n)
			}
			lo := max(0, hi-left)
			t.set(holds, h, w, lo, hi, m.prev[run].v)
			left -= hi - lo
			hi = lo
		}
	}
}

// set gives pages lo..hi-1 of a run (h, w: its holders and writers) the
// holder v (holds) or the writer v, keeping the counters: a page is held
// when it has a holder, stale when it has none but a writer.
func (t *pageTable) set(holds bool, h, w []int32, lo, hi int, v int32) {
	held, stale := 0, 0
	if holds {
		now := v != noRequest
		for i := lo; i < hi; i++ {
			if was := h[i] != noRequest; was != now && w[i] != noRequest {
				stale++ // counted below as -1 when now is held
			}
			if (h[i] != noRequest) != now {
				held++
			}
			h[i] = v
		}
		if now {
			t.held, t.stale = t.held+held, t.stale-stale
		} else {
			t.held, t.stale = t.held-held, t.stale+stale
		}
		return
	}
	now := v != noRequest
	for i := lo; i < hi; i++ {
		if h[i] == noRequest && (w[i] != noRequest) != now {
			stale++
		}
		w[i] = v
	}
	if now {
		t.stale += stale
	} else {
		t.stale -= stale
	}
}

// appendValue adds one page's value to runs.
func appendValue(runs []valueRun, v int32) []valueRun {
	if n := len(runs); n > 0 && runs[n-1].v == v {
		runs[n-1].n++
		return runs
	}
	return append(runs, valueRun{v: v, n: 1})
}
