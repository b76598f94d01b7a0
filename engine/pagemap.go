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
// as needed, and returns it. One pass over the pool and one over the
// last response's leaked pages; nothing else is allocated.
func (s *Snapshot) PageMap(dst []byte) []byte {
	n := len(s.holder)
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	tenantOf := s.e.reqTenant
	for id := range n {
		dst[id] = mapByte(s.holder[id], s.writer[id], tenantOf)
	}
	s.leaked().Each(func(id int) bool {
		dst[id] = dst[id]&^MapStateMask | MapLeaked
		return true
	})
	return dst
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
// so that a step of the scrubber or a Send costs the pages it touched, not
// the pool. prev is an earlier snapshot of the same engine at any step;
// only its step and last response are read, so a live snapshot that a
// Send has since moved on from will do. With no usable prev (nil, another
// engine, a dst of another size) or when the steps between touched more
// than a quarter of the pool, it draws the whole map, and all is true.
func (s *Snapshot) PageMapSince(dst []byte, prev *Snapshot) (m []byte, changed Pages, all bool) {
	if prev == nil || prev.e != s.e || len(dst) != len(s.holder) {
		return s.PageMap(dst), nil, true
	}
	lo, hi := min(prev.step, s.step), max(prev.step, s.step)
	budget := len(s.holder) / 4
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
	tenantOf := s.e.reqTenant
	changed.Each(func(id int) bool {
		dst[id] = mapByte(s.holder[id], s.writer[id], tenantOf)
		return true
	})
	s.leaked().Each(func(id int) bool {
		dst[id] = dst[id]&^MapStateMask | MapLeaked
		return true
	})
	return dst, changed, false
}
