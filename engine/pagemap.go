package engine

// A page map is the pool at one step as one byte per page, for drawing
// every page at once (the playground's pool map): the page's state in the
// low two bits and the tenant whose KV it holds (else the one holding it)
// above them, as an index into Tenants() plus one (0: nobody).
const (
	MapFree      byte = iota // on the free list, holding nothing
	MapAllocated             // held by a request
	MapStale                 // on the free list, still holding a request's KV
	MapLeaked                // read into the last response by another tenant

	MapStateMask  byte = 3
	MapOwnerShift      = 2
)

// PageMap writes the snapshot's page map into dst, grown to Pages() bytes
// as needed, and returns it: one fill per run of the page table and per
// run of the last response's leaked pages; nothing else is allocated.
func (s *Snapshot) PageMap(dst []byte) []byte {
	n := s.t.pages
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	s.drawMap(dst, Pages{{0, n}})
	return dst
}

// drawMap writes the map's bytes of pages, run by run, then marks the
// last response's leaked pages among them.
func (s *Snapshot) drawMap(dst []byte, pages Pages) {
	tenantOf := s.e.reqTenant
	for _, r := range pages {
		s.t.eachRun(r.First, r.First+r.Count, func(first, n int, h, w int32) {
			fill(dst[first:first+n], mapByte(h, w, tenantOf))
		})
	}
	for _, r := range s.leaked() {
		for _, p := range pages {
			lo, hi := max(r.First, p.First), min(r.First+r.Count, p.First+p.Count)
			s.t.eachRun(lo, hi, func(first, n int, h, w int32) {
				fill(dst[first:first+n], mapByte(h, w, tenantOf)&^MapStateMask|MapLeaked)
			})
		}
	}
}

// fill sets every byte of dst to b, doubling what it has copied.
func fill(dst []byte, b byte) {
	if len(dst) == 0 {
		return
	}
	dst[0] = b
	for k := 1; k < len(dst); k *= 2 {
		copy(dst[k:], dst[:k])
	}
}

// mapByte is one page's byte of the map, from its holder h and writer w.
func mapByte(h, w int32, tenantOf []uint8) byte {
	var b byte
	switch {
	case w != noRequest:
		b = (tenantOf[w-1] + 1) << MapOwnerShift
	case h != noRequest:
		b = (tenantOf[h-1] + 1) << MapOwnerShift
	}
	switch {
	case h != noRequest:
		b |= MapAllocated
	case w != noRequest:
		b |= MapStale
	}
	return b
}

// PageMapSince brings dst, the page map of prev, up to this snapshot and
// returns it with the pages it rewrote: only those that can differ, the
// pages the steps between the two changed and both steps' leaked pages,
// so that a step of the scrubber or a Send costs the runs it touched, not
// the pool. prev is an earlier snapshot of the same engine at any step;
// only its step and last response are read, so a live snapshot that a
// Send has since moved on from will do. With no usable prev (nil, another
// engine, a dst of another size) or when the steps between touched more
// than a quarter of the pool, it draws the whole map, and all is true.
func (s *Snapshot) PageMapSince(dst []byte, prev *Snapshot) (m []byte, changed Pages, all bool) {
	if prev == nil || prev.e != s.e || len(dst) != s.t.pages {
		return s.PageMap(dst), nil, true
	}
	lo, hi := min(prev.step, s.step), max(prev.step, s.step)
	budget := s.t.pages / 4
	for i := lo; i < hi; i++ {
		for _, mu := range s.e.log.At(i).muts {
			if mu.server != s.server {
				continue
			}
			changed = append(changed, mu.pages...)
			if budget -= mu.pages.Len(); budget < 0 {
				return s.PageMap(dst), nil, true
			}
		}
	}
	changed = append(append(changed, prev.leaked()...), s.leaked()...)
	s.drawMap(dst, changed)
	return dst, changed, false
}
