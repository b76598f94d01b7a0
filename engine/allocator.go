package engine

import (
	"fmt"
	"slices"
	"sort"
)

// Allocator is the free-list policy of the KV pool's allocator. It decides
// whose stale KV a new reservation gets, not whether: free() clears nothing
// under any of them.
type Allocator string

const (
	// Sorted is SGLang's policy in PD mode (need_sort): free() stages pages in
	// release_pages, and only an allocation that finds free_pages short runs
	// merge_and_sort_free, which merges them back sorted by page id.
	Sorted Allocator = "sorted"
	// LIFO is the paged allocator without need_sort: freed pages are
	// prepended to free_pages, so the most recently freed come back first.
	LIFO Allocator = "lifo"
	// FIFO is the page-size-1 allocator without need_sort: freed pages are
	// appended to free_pages, so they come back last.
	FIFO Allocator = "fifo"
)

// Allocators lists the policies, SGLang's PD default first.
var Allocators = []Allocator{Sorted, LIFO, FIFO}

// orDefault is the policy an empty Allocator means: Sorted, SGLang's PD
// default. (A run file of version 1 has none and is read as LIFO instead;
// see ImportRun.)
func (a Allocator) orDefault() Allocator {
	if a == "" {
		return Sorted
	}
	return a
}

// freeList is free_pages and, under Sorted, release_pages, both kept as runs
// of page ids so that a request costs the runs it touches, not the pool.
type freeList struct {
	policy Allocator
	free   runDeque // free_pages: allocation takes from the front
	staged []Run    // release_pages: freed, not yet merged (Sorted only)
	nFree  int
	nStage int
}

func newFreeList(pages int, policy Allocator) freeList {
	l := freeList{policy: policy.orDefault(), nFree: pages}
	l.free.pushBack(Run{0, pages})
	return l
}

func (l *freeList) len() int { return l.nFree + l.nStage }

// take hands out n pages from the front of free_pages, in list order.
// merged is how many staged pages merge_and_sort_free brought back first.
func (l *freeList) take(n int) (out Pages, merged int, err error) {
	if l.policy == Sorted && n > l.nFree {
		merged = l.mergeAndSortFree()
	}
	if n > l.nFree {
		return nil, merged, fmt.Errorf("%s %s needed, %s free", th(n), plural(n, "page", "pages"), th(l.nFree))
	}
	l.nFree -= n
	for n > 0 {
		r := l.free.front()
		c := min(r.Count, n)
		out = append(out, Run{r.First, c})
		r.First, r.Count, n = r.First+c, r.Count-c, n-c
		if r.Count == 0 {
			l.free.popFront()
		}
	}
	return out, merged, nil
}

// mergeForExtend is the check PagedTokenToKVPoolAllocator.alloc_extend
// (mem_cache/allocator.py) makes before it allocates for one request of
// tokens new tokens in pages of pageTokens: with need_sort it runs
// merge_and_sort_free when extend_num_tokens // page_size + bs + 1 >
// len(free_pages), bs = 1 — earlier than take's n > free, which is the
// page-size-1 allocator's alloc. It returns how many pages it merged.
func (l *freeList) mergeForExtend(tokens, pageTokens int) int {
	if l.policy != Sorted || pageTokens <= 1 || tokens/pageTokens+2 <= l.nFree {
		return 0
	}
	return l.mergeAndSortFree()
}

// put returns freed pages the way the policy does.
func (l *freeList) put(p Pages) {
	switch l.policy {
	case Sorted:
		l.staged = append(l.staged, p...)
		l.nStage += p.Len()
		return
	case LIFO:
		// The paged free() prepends torch.unique(pages): ascending page ids.
		runs := slices.Clone(p)
		sortRuns(runs)
		for i := len(runs) - 1; i >= 0; i-- {
			l.free.pushFront(runs[i])
		}
	case FIFO:
		for _, r := range p {
			l.free.pushBack(r)
		}
	}
	l.nFree += p.Len()
}

// mergeAndSortFree is merge_and_sort_free: the staged pages join free_pages
// and the whole list is sorted by page id. It only runs when free_pages is
// short of an allocation, so free_pages holds fewer pages than that
// allocation: the sort costs the staged runs plus the request's, not the pool.
func (l *freeList) mergeAndSortFree() int {
	if l.nStage == 0 {
		return 0
	}
	runs := l.staged
	for l.free.n > 0 {
		runs = append(runs, *l.free.front())
		l.free.popFront()
	}
	sortRuns(runs)
	for _, r := range runs {
		l.free.pushBack(r)
	}
	merged := l.nStage
	l.nFree += merged
	l.staged, l.nStage = nil, 0
	return merged
}

// ids lists every free page, free_pages first, then release_pages. It costs
// the whole pool: tests only.
func (l *freeList) ids() []int32 {
	var out []int32
	for i := range l.free.n {
		r := l.free.at(i)
		for id := r.First; id < r.First+r.Count; id++ {
			out = append(out, int32(id))
		}
	}
	Pages(l.staged).Each(func(id int) bool { out = append(out, int32(id)); return true })
	return out
}

// sortRuns puts runs in page order. sort.SliceStable, not slices.SortFunc:
// a slices sort is instantiated per element type, and each costs the wasm
// ~18 KB of code (docs/performance.md, "the bytes"); the ids are unique,
// so stable or not is the same order.
func sortRuns(runs []Run) {
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].First < runs[j].First })
}
