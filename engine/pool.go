package engine

import "fmt"

// noRequest marks a page that nobody holds, or that holds no content.
const noRequest = 0

// pool is the paged KV pool (PagedTokenToKVPoolAllocator): for every page,
// the request that holds it and the request that last wrote it, plus a free
// list. Requests are numbered from 1, so 0 means none.
type pool struct {
	holder []int32
	writer []int32
	// free is a stack whose top is handed out next. Freed pages are pushed
	// so that they come back first and in their original order, as the real
	// allocator's "prepend to the free list" does.
	free      []int32
	allocated int
	stale     int // free pages that still hold some request's content
}

func newPool(pages int) *pool {
	p := &pool{
		holder: make([]int32, pages),
		writer: make([]int32, pages),
		free:   make([]int32, pages),
	}
	for i := range pages {
		p.free[i] = int32(pages - 1 - i) // page 0 on top
	}
	return p
}

func (p *pool) size() int      { return len(p.holder) }
func (p *pool) freeCount() int { return len(p.free) }

// alloc hands out n pages to request req, most recently freed first.
func (p *pool) alloc(n int, req int32) (Pages, error) {
	if n > len(p.free) {
		return nil, fmt.Errorf("KV pool exhausted: %s %s needed, %s free", th(n), plural(n, "page", "pages"), th(len(p.free)))
	}
	var out Pages
	for range n {
		top := len(p.free) - 1
		id := p.free[top]
		p.free = p.free[:top]
		if p.writer[id] != noRequest {
			p.stale--
		}
		p.holder[id] = req
		out = out.add(int(id))
	}
	p.allocated += n
	return out, nil
}

// write records req as the last writer of pages.
func (p *pool) write(pages Pages, req int32) {
	pages.Each(func(id int) bool { p.writer[id] = req; return true })
}

// release returns pages to the free list without clearing them: free() only
// returns ids. With scrub it zeroes them first and reports how many it wrote.
func (p *pool) release(pages Pages, scrub bool) (scrubbed int) {
	n := pages.Len()
	// Push in reverse so the first page of the slot is on top again.
	for i := len(pages) - 1; i >= 0; i-- {
		r := pages[i]
		for id := r.First + r.Count - 1; id >= r.First; id-- {
			p.holder[id] = noRequest
			if scrub {
				p.writer[id] = noRequest
			}
			if p.writer[id] != noRequest {
				p.stale++
			}
			p.free = append(p.free, int32(id))
		}
	}
	p.allocated -= n
	if scrub {
		return n // zeroing costs one write per freed page, content or not
	}
	return 0
}
