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

// mutation is one change to who holds and who last wrote some pages. A live
// run and a replay both go through pageTable.apply, so they cannot drift.
type mutation struct {
	kind  mutKind
	pages Pages
	req   int32
}

// pageTable is, for every page, the request that holds it and the request
// that last wrote it. Requests are numbered from 1, so 0 means none.
type pageTable struct {
	holder, writer []int32
	held           int // pages some request holds
	stale          int // unheld pages that still hold some request's KV
}

func newPageTable(pages int) pageTable {
	return pageTable{holder: make([]int32, pages), writer: make([]int32, pages)}
}

// apply makes m's change and returns m, for the event that logs it.
func (t *pageTable) apply(m mutation) mutation {
	m.pages.Each(func(id int) bool {
		t.count(id, -1)
		switch m.kind {
		case mutAlloc:
			t.holder[id] = m.req
		case mutFree:
			t.holder[id] = noRequest
		case mutWrite:
			t.writer[id] = m.req
		case mutScrub:
			t.writer[id] = noRequest
		}
		t.count(id, +1)
		return true
	})
	return m
}

// count adds d to the counter of page id's state, so that counting the
// pool's states costs nothing (Snapshot.Occupancy).
func (t *pageTable) count(id, d int) {
	switch {
	case t.holder[id] != noRequest:
		t.held += d
	case t.writer[id] != noRequest:
		t.stale += d
	}
}
