package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// tableOp is one random step of the property test: a change applied to
// both tables, or an undo or redo of logged changes on the run table while
// the oracle replays the changes up to that step.
type tableOp struct {
	kind       mutKind // 0: move the view (undo/redo)
	pages      Pages
	req        int
	tokens, to int
}

// checkTableOps drives the run table and the per-position oracle through
// ops, in a pool of pages pages of pageTokens positions, and after every op
// compares each page's holder, writer and positions, and the counters.
func checkTableOps(t *testing.T, pages, pageTokens int, ops []tableOp) {
	t.Helper()
	run := newPageTable(pages, pageTokens)
	latest := newPageModel(pages, pageTokens)
	var log, asked []mutation // as logged by the run table, and as asked
	at := 0                   // the step the run table shows: len(log) unless moved back
	for i, op := range ops {
		if op.kind == 0 {
			to := op.to % (len(log) + 1)
			for ; at < to; at++ {
				run.redo(log[at])
			}
			for at > to {
				at--
				run.undo(log[at])
			}
			then := newPageModel(pages, pageTokens) // the oracle replays from the start
			for _, m := range asked[:to] {
				then.apply(m)
			}
			compareTables(t, fmt.Sprintf("op %d: move to step %d", i, to), &run, then)
			continue
		}
		for ; at < len(log); at++ { // changes are made at the latest step
			run.redo(log[at])
		}
		m := mutation{kind: op.kind, pages: op.pages, req: int32(op.req), tokens: op.tokens}
		log, asked = append(log, run.apply(m)), append(asked, m)
		at++
		latest.apply(m)
		compareTables(t, fmt.Sprintf("op %d: %+v", i, op), &run, latest)
	}
}

// compareTables fails unless the run table and the oracle agree on every
// page and position, and the table's runs are canonical: sorted, from 0,
// neighbours different.
func compareTables(t *testing.T, what string, run *pageTable, want *pageModel) {
	t.Helper()
	if run.runs[0].start != 0 {
		t.Fatalf("%s: the first run starts at %d", what, run.runs[0].start)
	}
	for i := 1; i < len(run.runs); i++ {
		a, b := run.runs[i-1], run.runs[i]
		if a.start >= b.start || int(b.start) >= run.pages || (a.holder == b.holder && a.writer == b.writer) {
			t.Fatalf("%s: runs %d and %d are %+v and %+v", what, i-1, i, a, b)
		}
	}
	holder, writer := run.perPage()
	mixed := 0
	for id := range want.holder {
		if holder[id] != want.holder[id] || writer[id] != want.page(id)[0] {
			t.Fatalf("%s: page %d is held by r%d, written by r%d; the oracle says r%d, r%d", what, id, holder[id], writer[id], want.holder[id], want.page(id)[0])
		}
		got := slices.Repeat([]int32{writer[id]}, run.pageTokens)
		if p, ok := run.partial[int32(id)]; ok {
			got = got[:0]
			for _, r := range p {
				for len(got) < int(r.End) {
					got = append(got, r.Writer)
				}
			}
		}
		if !slices.Equal(got, want.page(id)) {
			t.Fatalf("%s: page %d's positions hold %v, the oracle %v", what, id, got, want.page(id))
		}
		if want.mixed(id) {
			mixed++
		}
	}
	if len(run.partial) != mixed {
		t.Fatalf("%s: %d partial pages, the oracle %d", what, len(run.partial), mixed)
	}
	if held, stale := want.counts(); held != run.held || stale != run.stale {
		t.Fatalf("%s: held %d stale %d, the oracle %d %d", what, run.held, run.stale, held, stale)
	}
}

// randomTableOps is n random ops over a pool of pages pages: allocations,
// writes (some ending inside a page), frees, scrubs and moves of the view,
// each over one to four separate ranges in any order, from one page to
// most of the pool.
func randomTableOps(r *rand.Rand, pages, pageTokens, n int) []tableOp {
	ops := make([]tableOp, n)
	for i := range ops {
		var p Pages
		for at, k := 0, 1+r.IntN(4); at < pages && len(p) < k; {
			first := at + r.IntN(min(pages-at, 16))
			if len(p) == 0 {
				first = r.IntN(pages)
			}
			count := 1 + r.IntN(pages-first)
			if r.IntN(3) > 0 { // mostly short ranges, so that runs pile up
				count = 1 + r.IntN(min(pages-first, 8))
			}
			p = append(p, Run{first, count})
			at = first + count + 1 // a gap: the ranges stay separate
		}
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		op := tableOp{kind: mutKind(r.IntN(5)), pages: p, req: 1 + r.IntN(6), to: r.IntN(n + 1)}
		if op.kind == mutWrite && r.IntN(2) == 0 {
			op.tokens = endsInLast(p, pageTokens, r.IntN(pageTokens))
		}
		ops[i] = op
	}
	return ops
}

// endsInLast is a write's tokens that end k+1 positions into the last of
// pages (k < pageTokens), as every write the engine makes does: its pages
// are the Head of as many as the tokens need.
func endsInLast(pages Pages, pageTokens, k int) int {
	n := 0
	for _, r := range pages {
		n += r.Count
	}
	return (n-1)*pageTokens + 1 + k
}

// TestPageTableMatchesOracle: the run table and the per-position model
// agree page by page after every change, undo and redo, in small pools and
// in a pool of 2,097,152 pages.
func TestPageTableMatchesOracle(t *testing.T) {
	cases := []struct{ pages, pageTokens, ops, seeds int }{
		{1, 1, 40, 20}, {7, 16, 200, 40}, {64, 4, 300, 20}, {1_000, 1, 300, 5}, {2_097_152, 1, 30, 1},
	}
	for _, c := range cases {
		for seed := range c.seeds {
			t.Run(fmt.Sprintf("pages=%d/seed=%d", c.pages, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(seed), uint64(c.pages)))
				checkTableOps(t, c.pages, c.pageTokens, randomTableOps(r, c.pages, c.pageTokens, c.ops))
			})
		}
	}
}

// FuzzPageTable feeds the property test ops decoded from the fuzzer's
// bytes, in a pool whose size the first two set (up to 4,096 pages, or
// 2,097,152 when the first is 255). An op is four bytes (kind, request,
// step to move to or tokens, ranges) and four a range (where it starts
// after the last, its length); a fifth bit of the ranges byte lists them
// last first.
func FuzzPageTable(f *testing.F) {
	// A write over {0,2},{4,3} of pages that two writers held, undone.
	f.Add([]byte{0, 8, 2, 2, 0, 0, 0, 0, 0, 2, 2, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 0, 0, 0, 0, 0})
	// The same listed last first, a partial write and a scrub, undone.
	f.Add([]byte{0, 8, 2, 2, 0, 0, 0, 0, 0, 2, 2, 1, 3, 5, 0, 0, 0, 1, 0, 1, 0, 2, 4, 0, 0, 1, 0, 3, 0, 3, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 0, 0})
	f.Add([]byte{255, 255, 1, 3, 200, 2, 90, 2, 5, 1, 2, 0, 1, 200, 3, 0, 7, 4, 8, 8, 8, 8, 2, 4, 1, 6, 0, 3, 0, 0, 0, 9, 9, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		pages, most := 1+(int(data[0]&15)<<8|int(data[1])), 64
		if data[0] == 255 {
			pages, most = 2_097_152, 8 // the largest pool the engine takes
		}
		const pageTokens = 4
		var ops []tableOp
		for b := data[2:]; len(b) >= 8 && len(ops) < most; {
			op := tableOp{kind: mutKind(b[0] % 5), req: 1 + int(b[1]%6), to: int(b[2])}
			k, last := 1+int(b[3]%4), b[3]&4 != 0
			b = b[4:]
			for at := 0; len(b) >= 4 && at < pages && len(op.pages) < k; b = b[4:] {
				first := at + (int(b[0])<<8|int(b[1]))%(pages-at)
				count := 1 + (int(b[2])<<8|int(b[3]))%(pages-first)
				op.pages = append(op.pages, Run{first, count})
				at = first + count + 1
			}
			if last {
				slices.Reverse(op.pages)
			}
			if op.kind == mutWrite && op.to%2 == 1 {
				op.tokens = endsInLast(op.pages, pageTokens, op.to/2%pageTokens)
			}
			ops = append(ops, op)
		}
		checkTableOps(t, pages, pageTokens, ops)
	})
}

// TestLaunchPageStateIsSmall: after the glm-launch preset (a 681,280-page
// and a 1,048,576-page pool, a 900,000-page reservation) the two page
// tables and free lists hold at most 64 KB — their runs, not their pages
// (the per-page table held about 14 MB).
func TestLaunchPageStateIsSmall(t *testing.T) {
	e := replayPreset(t, "glm-launch")
	total := 0
	for _, p := range e.pools {
		total += pageStateBytes(p)
	}
	t.Logf("page state after glm-launch: %d bytes", total)
	if total > 64<<10 {
		t.Fatalf("page tables and free lists hold %d bytes, over 64 KB", total)
	}
}

// pageStateBytes is what a pool's page table and free list hold: their
// slices' capacity and, for partial pages, their positions and map entry.
func pageStateBytes(p *pool) int {
	n := cap(p.runs)*int(unsafe.Sizeof(pageRun{})) + cap(p.spare)*int(unsafe.Sizeof(pageRun{}))
	for _, ps := range p.partial {
		n += 8 + 24 + cap(ps)*int(unsafe.Sizeof(positionRun{}))
	}
	n += cap(p.free.free.buf)*int(unsafe.Sizeof(Run{})) + cap(p.free.staged)*int(unsafe.Sizeof(Run{}))
	return n
}
