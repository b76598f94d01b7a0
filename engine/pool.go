package engine

// pool is one server's paged KV pool: the page table plus the allocator's
// free list. Every change goes through pageTable.apply and comes back as a
// mutation for the event that logs it.
type pool struct {
	pageTable
	server    serverIndex
	free      freeList
	allocated int
}

// serverIndex numbers the servers: Engine.pools and a mutation's server.
type serverIndex uint8

const (
	prefillIndex serverIndex = iota
	decodeIndex
)

func indexOf(s Server) serverIndex {
	if s == ServerPrefill {
		return prefillIndex
	}
	return decodeIndex
}

func newPool(server serverIndex, pages, pageTokens int, policy Allocator) *pool {
	return &pool{pageTable: newPageTable(pages, pageTokens), server: server, free: newFreeList(pages, policy)}
}

func (p *pool) size() int      { return p.pages }
func (p *pool) freeCount() int { return p.free.len() }

// alloc reserves n pages for req. merged is how many staged pages
// merge_and_sort_free brought back to make room.
func (p *pool) alloc(n int, req int32) (m mutation, merged int, err error) {
	pages, merged, err := p.free.take(n)
	if err != nil {
		return mutation{}, merged, err
	}
	p.allocated += n
	return p.apply(mutation{kind: mutAlloc, server: p.server, pages: pages, req: req}), merged, nil
}

// write records req as the writer of the first tokens positions of pages
// (all of them when tokens is 0): the last page keeps what it held past them.
func (p *pool) write(pages Pages, req int32, tokens int) mutation {
	return p.apply(mutation{kind: mutWrite, server: p.server, pages: pages, req: req, tokens: tokens})
}

// copyPages is a transfer of whole pages (Mooncake's send_kvcache copies
// page indices, kv_item_lens = item bytes × page_size): req's first tokens
// positions, and past them, in the last page, what the sender's page tail
// held.
func (p *pool) copyPages(pages Pages, req int32, tokens int, tail positions) mutation {
	return p.apply(mutation{kind: mutWrite, server: p.server, pages: pages, req: req, tokens: tokens, src: tail})
}

// release returns pages to the free list without clearing them: free() only
// moves ids. With scrub it zeroes them first, one write per page.
func (p *pool) release(pages Pages, req int32, scrub bool) []mutation {
	muts := []mutation{p.apply(mutation{kind: mutFree, server: p.server, pages: pages, req: req})}
	if scrub {
		muts = append(muts, p.apply(mutation{kind: mutScrub, server: p.server, pages: pages, req: req}))
	}
	p.free.put(pages)
	p.allocated -= pages.Len()
	return muts
}
