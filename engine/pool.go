package engine

// pool is the paged KV pool: the page table plus the allocator's free list.
// Every change goes through pageTable.apply and comes back as a mutation for
// the event that logs it.
type pool struct {
	pageTable
	free      freeList
	allocated int
}

func newPool(pages int, policy Allocator) *pool {
	return &pool{pageTable: newPageTable(pages), free: newFreeList(pages, policy)}
}

func (p *pool) size() int      { return len(p.holder) }
func (p *pool) freeCount() int { return p.free.len() }

// alloc reserves n pages for req. merged is how many staged pages
// merge_and_sort_free brought back to make room.
func (p *pool) alloc(n int, req int32) (m mutation, merged int, err error) {
	pages, merged, err := p.free.take(n)
	if err != nil {
		return mutation{}, merged, err
	}
	p.allocated += n
	return p.apply(mutation{kind: mutAlloc, pages: pages, req: req}), merged, nil
}

// write records req as the last writer of pages.
func (p *pool) write(pages Pages, req int32) mutation {
	return p.apply(mutation{kind: mutWrite, pages: pages, req: req})
}

// release returns pages to the free list without clearing them: free() only
// moves ids. With scrub it zeroes them first, one write per page.
func (p *pool) release(pages Pages, req int32, scrub bool) []mutation {
	muts := []mutation{p.apply(mutation{kind: mutFree, pages: pages, req: req})}
	if scrub {
		muts = append(muts, p.apply(mutation{kind: mutScrub, pages: pages, req: req}))
	}
	p.free.put(pages)
	p.allocated -= pages.Len()
	return muts
}
