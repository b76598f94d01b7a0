package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// tableOp is one random step of the property test: a change applied to
// both tables, or an undo or redo of logged changes on the run table while
// the oracle replays the changes up to that step.
type tableOp struct {
	kind              mutKind // 0: move the view (undo/redo)
	first, count, req int
	tokens, to        int
}

// checkTableOps drives the run table and the per-page oracle through ops,
// in a pool of pages pages of pageTokens positions, and after every op
// compares each page's holder, writer and positions, and the counters.
func checkTableOps(t *testing.T, pages, pageTokens int, ops []tableOp) {
	t.Helper()
	run := newPageTable(pages, pageTokens)
	latest := newSlicePages(pages, pageTokens)
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
			then := newSlicePages(pages, pageTokens) // the oracle replays from the start
			for _, m := range asked[:to] {
				then.apply(m)
			}
			compareTables(t, fmt.Sprintf("op %d: move to step %d", i, to), &run, then)
			continue
		}
		for ; at < len(log); at++ { // changes are made at the latest step
			run.redo(log[at])
		}
		m := mutation{kind: op.kind, pages: Pages{{op.first, op.count}}, req: int32(op.req), tokens: op.tokens}
		log, asked = append(log, run.apply(m)), append(asked, m)
		at++
		latest.apply(m)
		compareTables(t, fmt.Sprintf("op %d: %+v", i, op), &run, latest)
	}
}

// compareTables fails unless the run table and the oracle agree on every
// page, and the table's runs are canonical: sorted, from 0, neighbours
// different.
func compareTables(t *testing.T, what string, run *pageTable, want *slicePages) {
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
	for id := range want.holder {
		if holder[id] != want.holder[id] || writer[id] != want.writer[id] {
			t.Fatalf("%s: page %d is held by r%d, written by r%d; the oracle says r%d, r%d", what, id, holder[id], writer[id], want.holder[id], want.writer[id])
		}
	}
	if len(run.partial) != len(want.partial) {
		t.Fatalf("%s: %d partial pages, the oracle %d", what, len(run.partial), len(want.partial))
	}
	for id, p := range want.partial {
		if got := run.positionsOf(int(id)); fmt.Sprint(got) != fmt.Sprint(p) {
			t.Fatalf("%s: page %d holds %v, the oracle %v", what, id, got, p)
		}
	}
	if held, stale := want.counts(); held != run.held || stale != run.stale {
		t.Fatalf("%s: held %d stale %d, the oracle %d %d", what, run.held, run.stale, held, stale)
	}
}

// randomTableOps is n random ops over a pool of pages pages: allocations,
// writes (some ending inside a page), frees, scrubs and moves of the view,
// over ranges from one page to most of the pool.
func randomTableOps(r *rand.Rand, pages, pageTokens, n int) []tableOp {
	ops := make([]tableOp, n)
	for i := range ops {
		first := r.IntN(pages)
		count := 1 + r.IntN(pages-first)
		if r.IntN(3) > 0 { // mostly short ranges, so that runs pile up
			count = 1 + r.IntN(min(pages-first, 8))
		}
		op := tableOp{kind: mutKind(r.IntN(5)), first: first, count: count, req: 1 + r.IntN(6), to: r.IntN(n + 1)}
		if op.kind == mutWrite && r.IntN(2) == 0 {
			op.tokens = 1 + r.IntN(count*pageTokens)
		}
		ops[i] = op
	}
	return ops
}

// TestPageTableMatchesOracle: the run table and the per-page table it
// replaced agree page by page after every change, undo and redo, in small
// pools and in a pool of 2,097,152 pages.
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
// bytes: seven bytes an op, in a pool whose size the first two set (up to
// 4,096 pages, or 2,097,152 when the first is 255).
func FuzzPageTable(f *testing.F) {
	f.Add([]byte{0, 9, 1, 0, 0, 4, 1, 0, 0, 2, 0, 0, 4, 1, 9, 0, 0, 3, 0, 0, 4, 1, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{255, 255, 1, 3, 200, 90, 2, 5, 1, 2, 0, 1, 200, 3, 0, 7, 4, 8, 8, 8, 8})
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
		for b := data[2:]; len(b) >= 7 && len(ops) < most; b = b[7:] {
			first := (int(b[1])<<8 | int(b[2])) % pages
			count := 1 + (int(b[3])<<8|int(b[4]))%(pages-first)
			op := tableOp{kind: mutKind(b[0] % 5), first: first, count: count, req: 1 + int(b[5]%6), to: int(b[6])}
			if op.kind == mutWrite && b[6]%2 == 1 {
				op.tokens = 1 + int(b[6])%(count*pageTokens)
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
