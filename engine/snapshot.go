package engine

import "fmt"

// PageState is what a page is at a step, as the grid shows it.
type PageState string

const (
	PageFree      PageState = "free"      // on the free list, holding nothing
	PageAllocated PageState = "allocated" // held by a request
	PageStale     PageState = "stale"     // on the free list, still holding a request's KV
	PageLeaked    PageState = "leaked"    // read into the last response by another tenant
)

// Snapshot is the pool as it was after one step of the log. The current
// snapshot shares the engine's arrays, so it is cheap and valid until the
// next Send or Settle; one at an earlier step is rebuilt by replaying the log.
type Snapshot struct {
	e      *Engine
	server serverIndex
	step   int
	t      pageTable // shares the engine's or ViewAt's runs
	last   int       // index of the last response visible at step, or -1
}

// Snapshot returns decode's pool, where a leak lands, after the latest step.
func (e *Engine) Snapshot() *Snapshot { return e.SnapshotOf(ServerDecode) }

// SnapshotOf returns one server's pool after the latest step.
func (e *Engine) SnapshotOf(server Server) *Snapshot {
	i := indexOf(server)
	return e.newSnapshot(i, e.log.Len(), &e.pools[i].pageTable)
}

// SnapshotAt returns decode's pool after step (0 is before the first
// event), a copy: ViewAt's snapshot with its own page table.
func (e *Engine) SnapshotAt(step int) (*Snapshot, error) { return e.SnapshotAtOf(ServerDecode, step) }

// SnapshotAtOf is SnapshotAt for one server's pool.
func (e *Engine) SnapshotAtOf(server Server, step int) (*Snapshot, error) {
	s, err := e.ViewAtOf(server, step)
	if err != nil || step == e.log.Len() {
		return s, err
	}
	s.t = s.t.clone()
	return s, nil
}

// ViewAt returns the pool after step without copying it: a snapshot of the
// table the engine keeps at the last step asked for, valid until the next
// ViewAt or SnapshotAt. The engine moves that table from its step,
// redoing the events in between or undoing them, so that a scrubber's
// step costs the runs the steps in between touched, not a replay of the
// log, nor a copy of the table.
func (e *Engine) ViewAt(step int) (*Snapshot, error) { return e.ViewAtOf(ServerDecode, step) }

// ViewAtOf is ViewAt for one server's pool; each pool keeps its own table.
func (e *Engine) ViewAtOf(server Server, step int) (*Snapshot, error) {
	if step < 0 || step > e.log.Len() {
		return nil, fmt.Errorf("step %d: must be between 0 and %d", step, e.log.Len())
	}
	if step == e.log.Len() {
		return e.SnapshotOf(server), nil
	}
	si := indexOf(server)
	c := &e.scan[si]
	if c.runs == nil {
		c.pageTable, c.step = newPageTable(e.pools[si].size(), e.cfg.PageTokens), 0
	}
	for ; c.step < step; c.step++ {
		for _, m := range e.log.At(c.step).muts {
			if m.server == si {
				c.redo(m)
			}
		}
	}
	for c.step > step {
		c.step--
		muts := e.log.At(c.step).muts
		for i := len(muts) - 1; i >= 0; i-- {
			if muts[i].server == si {
				c.undo(muts[i])
			}
		}
	}
	return e.newSnapshot(si, step, &c.pageTable), nil
}

// scanTable is ViewAt's page table of one pool and the step it stands at.
type scanTable struct {
	pageTable
	step int
}

func (e *Engine) newSnapshot(server serverIndex, step int, t *pageTable) *Snapshot {
	s := &Snapshot{e: e, server: server, step: step, t: *t, last: -1}
	for i := e.responses.len - 1; i >= 0; i-- {
		if visibleAt(*e.response(i), step) {
			s.last = i
			break
		}
	}
	return s
}

// visibleAt reports whether a response (or its decode read) happened by step.
func visibleAt(r Response, step int) bool {
	return r.Step <= step || (r.ReadStep != 0 && r.ReadStep <= step)
}

// Server is the server whose pool the snapshot shows.
func (s *Snapshot) Server() Server { return Servers[s.server] }

// Step is the log step the snapshot shows.
func (s *Snapshot) Step() int { return s.step }

// Pages is the number of pages in the pool.
func (s *Snapshot) Pages() int { return s.t.pages }

// Occupancy counts the pool's pages by state as Cells does over the whole
// pool (a leaked page counts as held or stale), without reading them: the
// page table keeps the counts as it changes.
func (s *Snapshot) Occupancy() (free, held, stale int) {
	return s.t.pages - s.t.held - s.t.stale, s.t.held, s.t.stale
}

// LastResponse is the newest response visible at this step, Lingering as
// it was then: a deferred release settled later must not show earlier.
func (s *Snapshot) LastResponse() (Response, bool) {
	if s.last < 0 {
		return Response{}, false
	}
	r := *s.e.response(s.last)
	if rec := s.e.reqs[r.Request-1]; rec.deferStep > 0 && s.server == decodeIndex {
		r.Lingering = rec.deferStep <= s.step && len(rec.reserved) > 0 && s.holderOf(rec.reserved[0].First) == rec.id
	}
	return r, true
}

// leaked is the last response's leaked pages, on decode's pool, where
// decode read them; prefill reads no page it did not write.
func (s *Snapshot) leaked() Pages {
	if s.last < 0 || s.server != decodeIndex {
		return nil
	}
	return s.e.response(s.last).LeakedPages
}

// PageInfo is everything the grid's details show about one page.
type PageInfo struct {
	ID    int       `json:"id"`
	State PageState `json:"state"`
	// Owner is the tenant whose KV the page holds, else the tenant holding it.
	Owner        string `json:"owner"`
	Writer       int    `json:"writer"`
	WriterTenant string `json:"writerTenant"`
	Holder       int    `json:"holder"`
	HolderTenant string `json:"holderTenant"`
	Reader       int    `json:"reader"` // last request that read it, by this step
	ReaderTenant string `json:"readerTenant"`
	Text         string `json:"text"` // the KV its first position holds, "" when empty
	Lingering    bool   `json:"lingering"`
	// Positions, for a page a write ended inside, says whose KV each run
	// of its positions holds (nil when one writer, or none, holds them all).
	Positions []PositionRun `json:"positions,omitempty"`
}

// PositionRun is positions First..Last of a page and whose KV they hold.
type PositionRun struct {
	First  int    `json:"first"`
	Last   int    `json:"last"`
	Writer int    `json:"writer"` // 0: nobody's
	Tenant string `json:"tenant"`
}

// Page describes one page at this step.
func (s *Snapshot) Page(id int) (PageInfo, error) {
	if id < 0 || id >= s.t.pages {
		return PageInfo{}, fmt.Errorf("page %d: must be between 0 and %d", id, s.t.pages-1)
	}
	e := s.e
	h, w := s.t.at(id)
	p := PageInfo{ID: id, Writer: int(w), Holder: int(h)}
	p.WriterTenant, p.HolderTenant = e.TenantOf(p.Writer), e.TenantOf(p.Holder)
	if p.Writer != noRequest {
		p.Text = e.reqs[p.Writer-1].text
	}
	if ps, ok := s.t.partial[int32(id)]; ok {
		from := 0
		for _, r := range ps {
			p.Positions = append(p.Positions, PositionRun{First: from, Last: int(r.End) - 1, Writer: int(r.Writer), Tenant: e.TenantOf(int(r.Writer))})
			from = int(r.End)
		}
	}
	for i := s.last; i >= 0 && s.server == decodeIndex; i-- {
		if r := e.response(i); r.ReadPages.Contains(id) {
			p.Reader, p.ReaderTenant = r.Request, r.Tenant
			break
		}
	}
	if p.Holder != noRequest && s.server == decodeIndex {
		r := e.reqs[p.Holder-1]
		p.Lingering = r.deferStep > 0 && r.deferStep <= s.step
	}
	p.Owner, p.State = s.owner(h, w), s.state(id, h, w)
	return p, nil
}

func (s *Snapshot) holderOf(id int) int32 {
	h, _ := s.t.at(id)
	return h
}

// owner is the tenant whose KV a page with holder h and writer w holds,
// else the one holding it.
func (s *Snapshot) owner(h, w int32) string {
	if w != noRequest {
		return s.e.tenants[s.e.reqTenant[w-1]]
	}
	if h != noRequest {
		return s.e.tenants[s.e.reqTenant[h-1]]
	}
	return ""
}

func (s *Snapshot) state(id int, h, w int32) PageState {
	switch {
	case s.leaked().Contains(id):
		return PageLeaked
	case h != noRequest:
		return PageAllocated
	case w != noRequest:
		return PageStale
	}
	return PageFree
}
