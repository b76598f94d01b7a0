package engine

// pageModel is the page table at its plainest: a holder for every page and
// a writer for every token position, changed one page and one position at
// a time. It is the oracle the run table is checked against
// (pagetable_prop_test.go), so it reads a mutation's fields and nothing
// else: no code of pageTable, positions or Pages.
type pageModel struct {
	holder     []int32 // by page
	writer     []int32 // by position: page id × pageTokens + position
	pageTokens int
}

func newPageModel(pages, pageTokens int) *pageModel {
	return &pageModel{holder: make([]int32, pages), writer: make([]int32, pages*pageTokens), pageTokens: pageTokens}
}

// apply makes m's change. A write fills the first m.tokens positions of
// its pages, taken in the order listed (all of them when m.tokens is 0).
func (s *pageModel) apply(m mutation) {
	left := m.tokens
	if left == 0 {
		left = -1 // no end
	}
	for _, r := range m.pages {
		for id := r.First; id < r.First+r.Count; id++ {
			switch m.kind {
			case mutAlloc:
				s.holder[id] = m.req
			case mutFree:
				s.holder[id] = noRequest
			case mutScrub:
				for p := range s.pageTokens {
					s.writer[id*s.pageTokens+p] = noRequest
				}
			case mutWrite:
				for p := 0; p < s.pageTokens && left != 0; p++ {
					s.writer[id*s.pageTokens+p] = m.req
					left--
				}
			}
		}
	}
}

// page is page id's writers, one a position.
func (s *pageModel) page(id int) []int32 {
	return s.writer[id*s.pageTokens : (id+1)*s.pageTokens]
}

// mixed reports whether page id holds more than one writer's KV (or some
// positions none).
func (s *pageModel) mixed(id int) bool {
	for _, w := range s.page(id) {
		if w != s.page(id)[0] {
			return true
		}
	}
	return false
}

// counts is the held pages, and the unheld ones that still hold some
// request's KV, counted one by one.
func (s *pageModel) counts() (held, stale int) {
	for id, h := range s.holder {
		switch {
		case h != noRequest:
			held++
		case s.mixed(id) || s.page(id)[0] != noRequest:
			stale++
		}
	}
	return held, stale
}
