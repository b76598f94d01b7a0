package engine

// Span is a stretch of a pool's pages that one request holds (or none
// does) and whose first positions one request wrote (or none did): what
// the playground's pool map names in words. Requests are numbered from 1;
// 0 is none.
type Span struct {
	First, Last    int // inclusive
	Holder, Writer int
}

// Spans calls f for each span of pages first..last (clipped to the pool),
// in page order, until f returns false. It walks the page table's runs,
// which are spans already: a 900,000-page reservation is one call.
func (s *Snapshot) Spans(first, last int, f func(Span) bool) {
	more := true
	s.t.eachRun(max(first, 0), min(last+1, s.t.pages), func(a, n int, h, w int32) {
		if more {
			more = f(Span{First: a, Last: a + n - 1, Holder: int(h), Writer: int(w)})
		}
	})
}
