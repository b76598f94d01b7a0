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
		h, w := s.holder[id], s.writer[id]
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
		dst[id] = b
	}
	s.leaked().Each(func(id int) bool {
		dst[id] = dst[id]&^MapStateMask | MapLeaked
		return true
	})
	return dst
}
