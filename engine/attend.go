package engine

import (
	"slices"
)

// attend walks what decode attends over: the first committed positions of
// read. run sees each stretch of pages one writer wrote first (their first
// position's writer), with how many of its positions are attended; move
// sees, for each page a write ended inside, each later run of positions
// that another writer holds: n positions that run counted for the page's
// first writer belong to w. It costs the table's runs and the partial
// pages, not the pages read. The page (readInto) and the replay (Stream)
// both count through it, so they cannot disagree.
func (t *pageTable) attend(read Pages, committed int, run func(first, n int, w int32, positions int), move func(id int, first, w int32, n int)) {
	size := t.pageTokens
	idx, last := 0, read.Len()-1  // idx: the page's place in read
	tail := committed - last*size // positions attended in the last page
	for _, r := range read {
		t.writerRuns(r, func(first, n int, w int32) {
			span := n * size
			if idx+n-1 == last {
				span += tail - size
			}
			run(first, n, w, span)
			idx += n
		})
	}
	// In page order, so that what move builds does not follow the map's.
	partial := t.partialIn(read)
	ids := make([]int, 0, len(partial))
	for id := range partial {
		ids = append(ids, id)
	}
	slices.Sort(ids) // []int's sort is in the wasm already (fmt's); slices.Sorted adds its own
	for _, id := range ids {
		ps := partial[id]
		span := size
		if id == lastPage(read) {
			span = tail
		}
		for k, p := range ps {
			from := 0
			if k > 0 {
				from = int(ps[k-1].End)
			}
			n := min(int(p.End), span) - from
			if n <= 0 {
				break
			}
			if k > 0 { // the first run was counted with the page
				move(id, ps[0].Writer, p.Writer, n)
			}
		}
	}
}

// partialIn is the pages of read that hold more than one writer's KV,
// with their positions: it looks at the few such pages, not at read.
func (t *pageTable) partialIn(read Pages) map[int]positions {
	out := map[int]positions{}
	if len(t.partial) < read.Len() {
		for id, p := range t.partial {
			if read.Contains(int(id)) {
				out[int(id)] = p
			}
		}
		return out
	}
	read.Each(func(id int) bool {
		if p, ok := t.partial[int32(id)]; ok {
			out[id] = p
		}
		return true
	})
	return out
}

// lastPage is the last page id of p, or -1.
func lastPage(p Pages) int {
	if len(p) == 0 {
		return -1
	}
	r := p[len(p)-1]
	return r.First + r.Count - 1
}
