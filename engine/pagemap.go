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
	hs, ws := s.holder[:n], s.writer[:n]
	last, owner := int32(-1), byte(0) // pages come in runs of one owner
	for id, h := range hs {
		w := ws[id]
		var b byte
		switch {
		case h != noRequest:
			b = MapAllocated
		case w != noRequest:
			b = MapStale
		default:
			dst[id] = MapFree
			continue
		}
		who := w
		if who == noRequest {
			who = h
		}
		if who != last {
			last, owner = who, (tenantOf[who-1]+1)<<MapOwnerShift
		}
		dst[id] = owner | b
	}
	s.leaked().Each(func(id int) bool {
		dst[id] = dst[id]&^MapStateMask | MapLeaked
		return true
	})
	return dst
}
