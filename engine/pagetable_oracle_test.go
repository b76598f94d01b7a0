package engine

// slicePages is the page table as it was before it kept runs: a holder, a
// writer and, for pages a write ended inside, the positions of every page,
// changed one page at a time. It is kept only as the oracle the run table
// is checked against (pagetable_prop_test.go), so it is written for
// plainness, not speed, and shares no code with pageTable.
type slicePages struct {
	holder, writer []int32
	partial        map[int32]positions
	pageTokens     int
}

func newSlicePages(pages, pageTokens int) *slicePages {
	return &slicePages{holder: make([]int32, pages), writer: make([]int32, pages), partial: map[int32]positions{}, pageTokens: pageTokens}
}

// apply makes m's change, page by page.
func (s *slicePages) apply(m mutation) {
	idx := 0
	full := m.pages.Len()
	if m.kind == mutWrite && m.tokens > 0 {
		full = m.tokens / s.pageTokens
	}
	for _, id := range pageIDs(m.pages) {
		switch m.kind {
		case mutAlloc:
			s.holder[id] = m.req
		case mutFree:
			s.holder[id] = noRequest
		case mutScrub:
			s.writer[id] = noRequest
			delete(s.partial, int32(id))
		case mutWrite:
			switch {
			case idx < full:
				delete(s.partial, int32(id))
			case idx == full && m.tokens%s.pageTokens != 0:
				after := s.positionsOf(id).overwrite(m.req, int32(m.tokens%s.pageTokens))
				if len(after) == 1 {
					delete(s.partial, int32(id))
				} else {
					s.partial[int32(id)] = after
				}
			}
			s.writer[id] = m.req
		}
		idx++
	}
}

func (s *slicePages) positionsOf(id int) positions {
	if p, ok := s.partial[int32(id)]; ok {
		return p
	}
	return positions{{Writer: s.writer[id], End: int32(s.pageTokens)}}
}

// counts is the held and stale pages, counted one by one.
func (s *slicePages) counts() (held, stale int) {
	for id, h := range s.holder {
		switch {
		case h != noRequest:
			held++
		case s.writer[id] != noRequest:
			stale++
		}
	}
	return held, stale
}

// pageIDs lists every page of p, in order.
func pageIDs(p Pages) []int {
	var out []int
	p.Each(func(id int) bool { out = append(out, id); return true })
	return out
}
