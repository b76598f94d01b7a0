package engine

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fuzz input is a small config and up to fuzzMaxOps ops, decoded from
// bytes so that every input is a valid config (pools of at most
// fuzzMaxPages pages) and the ops land near the interesting boundaries.
//
//	config: flags byte (bit 0 scrub, bit 1 cancel one half, bits 2–3 the
//	        allocator: fuzzAllocators[(flags>>2)&3]), then varints
//	        page-1, pool-page, slot-1, context-1, kvBytes-1 (each reduced
//	        into range)
//	op:     kind byte; kind%8 == 7 is a settle (request byte, outcome byte:
//	        %4 = drained, timeout, error, invalid); else a send: tenant
//	        (kind>>3)&3, content (kind>>5)&3, then a size byte (%8: 0 = raw
//	        varint follows, 1 max_req_input_len-1, 2 max_req_input_len, 3
//	        pool, 4 context, 5 context-1, 6 a slot's tokens, 7 small) and an
//	        end byte (255 =
//	        an invalid cancel stage, %16: 9 = fail the transfer, 10–15 =
//	        cancel at CancelStages[%16-10], else none).
const (
	fuzzMaxPages = 4_096
	fuzzMaxOps   = 64
	fuzzMaxPage  = 64
)

var (
	fuzzAllocators = []Allocator{"", Sorted, LIFO, FIFO}
	fuzzTenants    = []string{"A", "B", "C", "D"}
	fuzzContents   = []string{DemoSecret, "summarise my notes", "", "quarterly plan"}
)

type fuzzReader struct{ b []byte }

func (r *fuzzReader) more() bool { return len(r.b) > 0 }

func (r *fuzzReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *fuzzReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func decodeFuzz(data []byte) (Config, []Op) {
	r := &fuzzReader{data}
	flags := r.byte()
	cfg := Config{Mode: Vulnerable, Cancel: CancelBoth, ScrubOnFree: flags&1 != 0, Allocator: fuzzAllocators[(flags>>2)&3]}
	if flags&2 != 0 {
		cfg.Cancel = CancelOneHalf
	}
	cfg.PageTokens = 1 + int(r.uvarint()%fuzzMaxPage)
	cfg.PoolTokens = cfg.PageTokens + int(r.uvarint()%uint64(fuzzMaxPages*cfg.PageTokens-cfg.PageTokens+1))
	cfg.SlotPages = 1 + int(r.uvarint()%uint64(min(MaxSlotPages, cfg.PoolPages())))
	cfg.ContextTokens = 1 + int(r.uvarint()%uint64(4*cfg.PoolTokens+64))
	cfg.KVBytesPerToken = 1 + int(r.uvarint()%100_000)

	var ops []Op
	for r.more() && len(ops) < fuzzMaxOps {
		kind := r.byte()
		if kind%8 == 7 {
			id, o := int(r.byte()), r.byte()%4
			outcome := Outcome("bogus")
			if o < 3 {
				outcome = Outcomes[o]
			}
			ops = append(ops, SettleOp(id, outcome))
			continue
		}
		req := Request{Tenant: fuzzTenants[(kind>>3)&3], Content: fuzzContents[(kind>>5)&3]}
		size := r.byte()
		switch size % 8 {
		case 0:
			req.PromptTokens = int(min(r.uvarint(), 1<<40))
		case 1:
			req.PromptTokens = max(1, cfg.MaxReqInputLen()-1)
		case 2:
			req.PromptTokens = max(1, cfg.MaxReqInputLen())
		case 3:
			req.PromptTokens = cfg.PoolTokens
		case 4:
			req.PromptTokens = cfg.ContextTokens
		case 5:
			req.PromptTokens = max(1, cfg.ContextTokens-1)
		case 6:
			req.PromptTokens = cfg.SlotPages * cfg.PageTokens
		case 7:
			req.PromptTokens = 1 + int(size>>3)
		}
		switch end := r.byte(); {
		case end == 255:
			req.CancelAt = "bogus"
		case end%16 == 9:
			req.FailTransfer = true
		case end%16 >= 10:
			req.CancelAt = CancelStages[end%16-10]
		}
		ops = append(ops, SendOp(req))
	}
	return cfg, ops
}

// encodeFuzz is decodeFuzz's inverse for configs within its bounds, sizes
// sent raw; it builds the seed corpus.
func encodeFuzz(cfg Config, ops []Op) []byte {
	var b []byte
	flags := byte(0)
	if cfg.ScrubOnFree {
		flags |= 1
	}
	if cfg.Cancel == CancelOneHalf {
		flags |= 2
	}
	for i, a := range fuzzAllocators {
		if a == cfg.Allocator {
			flags |= byte(i) << 2
		}
	}
	b = append(b, flags)
	for _, v := range []int{cfg.PageTokens - 1, cfg.PoolTokens - cfg.PageTokens, cfg.SlotPages - 1,
		cfg.ContextTokens - 1, cfg.KVBytesPerToken - 1} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	index := func(list []string, s string) byte {
		for i, x := range list {
			if x == s {
				return byte(i)
			}
		}
		return 0
	}
	for _, op := range ops {
		if op.Settle != nil {
			o := byte(3)
			for i, x := range Outcomes {
				if x == op.Settle.Outcome {
					o = byte(i)
				}
			}
			b = append(b, 7, byte(op.Settle.Request), o)
			continue
		}
		r := op.Send
		b = append(b, index(fuzzTenants, r.Tenant)<<3|index(fuzzContents, r.Content)<<5, 0)
		b = binary.AppendUvarint(b, uint64(r.PromptTokens))
		end := byte(0)
		switch {
		case r.FailTransfer:
			end = 9
		case r.CancelAt != "":
			for i, s := range CancelStages {
				if s == r.CancelAt {
					end = byte(10 + i)
				}
			}
		}
		b = append(b, end)
	}
	return b
}

// scaledPreset shrinks a preset's token counts so that its pool fits the
// fuzz bounds while every prompt keeps its side of the pool and context
// limits.
func scaledPreset(p Preset) (Config, []Op) {
	cfg := p.Config
	s := (cfg.PoolPages() + fuzzMaxPages - 1) / fuzzMaxPages
	if s <= 1 {
		return cfg, clone(p.Ops)
	}
	cfg.ContextTokens /= s
	cfg.PoolTokens /= s
	ops := clone(p.Ops)
	for _, op := range ops {
		if op.Send != nil {
			op.Send.PromptTokens = max(1, op.Send.PromptTokens/s)
		}
	}
	return cfg, ops
}

func FuzzOps(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 7, 7, 15})
	// The demo, with a cancel, a failure and boundary sizes.
	f.Add([]byte{2, 0, 7, 7, 15, 0, 0, 8, 0, 0, 8, 2, 0, 8, 3, 10 + 2, 16, 3, 9, 7, 1, 0, 24, 4, 0, 0, 5, 11})
	// A pool that is not a whole number of pages: 3-token pages, a 10-token
	// pool (3 pages, 9 usable tokens), prompts of 9, 10 and 11 tokens.
	f.Add([]byte{0, 2, 7, 0, 40, 0, 0, 1, 0, 8, 3, 0, 16, 2, 0, 0, 6, 0})
	// Scrub, one half, many lingering slots then settles of each outcome.
	f.Add([]byte{3, 0, 31, 3, 100, 0, 0, 7 | 8, 12, 8, 7 | 16, 13, 0, 7 | 8, 12, 7, 1, 0, 7, 2, 1, 7, 3, 2, 7, 3, 3, 16, 3, 0})
	for _, p := range Presets() {
		cfg, ops := scaledPreset(p)
		f.Add(encodeFuzz(cfg, ops))
		// Every preset under each allocator policy.
		for _, a := range Allocators {
			cfg.Allocator = a
			f.Add(encodeFuzz(cfg, ops))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, ops := decodeFuzz(data)
		engines := map[Mode]*Engine{}
		for _, m := range []Mode{Vulnerable, Fixed, RetireOnly, LengthCheckOnly} {
			c := cfg
			c.Mode = m
			e, err := New(c)
			require.NoError(t, err, "%+v", c)
			engines[m] = e
		}
		for i, op := range ops {
			for _, m := range []Mode{Vulnerable, Fixed, RetireOnly, LengthCheckOnly} {
				fuzzApply(t, engines[m], op, i)
			}
		}
		ev := engines[Vulnerable]
		for _, m := range []Mode{Fixed, RetireOnly, LengthCheckOnly} {
			e := engines[m]
			assertReleasedOnce(t, e)
			assert.Zero(t, e.Metrics().WrongStatus, m)
			for _, r := range e.Responses() {
				if r.Leaked() {
					assert.NotEmpty(t, r.LateWriteFrom, "%s: each part of #38704 stops the placeholder leak; only a late write can leak", m)
				}
			}
			// With no placeholder admitted, every mode took the same path.
			if countPath(ev, PathPlaceholder) == 0 {
				require.Equal(t, ev.Metrics(), e.Metrics(), m)
			}
		}
		assertReleasedOnce(t, ev)
	})
}

func countPath(e *Engine, p Path) int {
	n := 0
	for _, r := range e.Responses() {
		if r.Path == p {
			n++
		}
	}
	return n
}

// fuzzApply applies one op and checks every invariant after it.
func fuzzApply(t *testing.T, e *Engine, op Op, i int) {
	cfg := e.Config()
	n := cfg.PoolPages()
	before := capture(e)
	pre, err := e.Snapshot().Cells(0, n-1, n) // one cell per page, before the op
	require.NoError(t, err)

	err = e.Apply(op)
	if op.Settle != nil {
		lingering := false
		for _, id := range before.Lingering {
			lingering = lingering || id == op.Settle.Request
		}
		valid := lingering && (op.Settle.Outcome == OutcomeDrained || op.Settle.Outcome == OutcomeTimeout || op.Settle.Outcome == OutcomeError)
		require.Equal(t, valid, err == nil, "op %d: settle %+v: %v", i, *op.Settle, err)
	} else {
		require.Equal(t, op.Send.Validate() == nil, err == nil, "op %d: send %+v: %v", i, *op.Send, err)
	}
	if err != nil {
		require.Equal(t, before, capture(e), "op %d failed and must change nothing", i)
		return
	}
	fuzzInvariants(t, e)
	if op.Send != nil {
		fuzzCheckResponse(t, e, *op.Send, pre)
	}
}

// fuzzInvariants: pages are conserved and each held page belongs to exactly
// one lingering request, which holds exactly its reservation.
func fuzzInvariants(t *testing.T, e *Engine) {
	m := e.Metrics()
	n := m.PagesTotal
	require.Equal(t, e.Config().PoolPages(), n)
	require.Equal(t, n, m.PagesFree+m.PagesAllocated, "pages are conserved")
	require.Equal(t, m.Requests, len(e.Responses()))
	require.Equal(t, m.Requests, m.Finished+m.Rejected+m.Aborted+m.Errored+m.Cancelled+m.Waiting)
	require.Equal(t, m.Waiting, len(e.Waiting()))
	for _, id := range e.Waiting() {
		r := e.Responses()[id-1]
		require.Equal(t, StateWaiting, r.State)
		require.Zero(t, r.Allocated, "a waiting request holds nothing")
	}

	s := e.Snapshot()
	cells, err := s.Cells(0, n-1, n)
	require.NoError(t, err)
	var allocated, stale, free int
	for _, c := range cells {
		allocated += c.Allocated
		stale += c.Stale
		free += c.Free
	}
	require.Equal(t, m.PagesAllocated, allocated)
	require.Equal(t, m.PagesStale, stale)
	require.Equal(t, m.PagesFree, stale+free)

	want := map[int]int{}
	sum := 0
	for _, id := range e.Lingering() {
		r := e.Responses()[id-1]
		require.True(t, r.Lingering)
		require.Equal(t, StateCancelled, r.State)
		want[id] = r.Allocated
		sum += r.Allocated
	}
	require.Equal(t, sum, m.PagesAllocated, "held pages are exactly the lingering reservations")
	require.Equal(t, sum, m.PagesLingering)
	got := map[int]int{}
	for id, h := range s.holder {
		if h != noRequest {
			got[int(h)]++
			require.Equal(t, PageAllocated, cells[id].State)
		}
	}
	if len(want) > 0 || len(got) > 0 {
		require.Equal(t, want, got, "pages held per request")
	}
	// The free list holds every unheld page once.
	seen := make([]bool, n)
	for _, id := range e.pool.free.ids() {
		require.False(t, seen[id], "page %d is on the free list twice", id)
		require.Equal(t, int32(noRequest), e.pool.holder[id], "page %d is free and held", id)
		seen[id] = true
	}
	require.Equal(t, m.PagesFree, len(e.pool.free.ids()))
}

// fuzzCheckResponse checks the response to r against the pool as it was
// just before the send (pre: one cell per page).
func fuzzCheckResponse(t *testing.T, e *Engine, r Request, pre []Cell) {
	cfg := e.Config()
	resp, ok := e.LastResponse()
	require.True(t, ok)
	require.Equal(t, r.Tenant, resp.Tenant)
	require.Equal(t, r.PromptTokens, resp.Tokens)

	switch {
	case r.PromptTokens >= cfg.ContextTokens:
		require.Equal(t, PathAPIReject, resp.Path)
		require.Equal(t, 400, resp.Status)
	case r.PromptTokens >= cfg.MaxReqInputLen():
		require.Equal(t, PathPlaceholder, resp.Path)
		if cfg.Mode.retires() {
			require.Equal(t, 400, resp.Status, "%s never answers 200 to a prompt over the limit", cfg.Mode)
			require.Equal(t, inputLengthMessage(r.PromptTokens, cfg.MaxReqInputLen()), resp.Reason)
		}
		if cfg.Mode.checksLength() {
			// Admitted: it may still be cancelled, wait or fail its
			// transfer, but decode never commits its stale pages.
			require.NotEqual(t, 200, resp.Status, "%s never answers 200 to a prompt over the limit", cfg.Mode)
		}
	default:
		require.Equal(t, PathNormal, resp.Path)
	}
	if resp.Path != PathNormal && cfg.Mode.retires() || resp.Path == PathAPIReject {
		require.Zero(t, resp.Allocated, "a rejected request allocates nothing")
	}
	require.Equal(t, resp.Status == 200 && resp.Path == PathPlaceholder, resp.WrongStatus)
	// Intake's limit must mean it: on a pool nobody holds, a request intake
	// let through can always reserve its pages.
	held := 0
	for _, c := range pre {
		held += c.Allocated
	}
	if held == 0 {
		require.NotEqual(t, StateWaiting, resp.State, "an empty pool cannot be short for a prompt intake accepted")
	}
	if resp.State == StateWaiting {
		require.Zero(t, resp.Status)
		require.Zero(t, resp.Allocated)
	}
	if resp.Status == 200 {
		require.Equal(t, StateFinished, resp.State)
		require.NotEmpty(t, resp.ReadPages)
	} else {
		require.Empty(t, resp.ReadPages, "only a 200 carries pages")
	}

	// The leak, page by page: decode read its pages. A late write that
	// landed in them (an event naming this response as its victim) holds
	// the late writer's KV; otherwise a page the request wrote is its own,
	// and any other still holds what it held before the send.
	late := map[int]string{}
	for _, ev := range e.Log().Copy() {
		if ev.Victim == resp.Request {
			ev.Pages.Each(func(id int) bool { late[id] = ev.Tenant; return true })
		}
	}
	own := resp.ReadPages
	if resp.Path == PathPlaceholder {
		own = resp.ReadPages.Head(1)
	}
	var wantLeaked []int
	zeroed := 0
	resp.ReadPages.Each(func(id int) bool {
		tenant, ok := late[id]
		switch {
		case ok:
		case own.Contains(id):
			tenant = r.Tenant
		case pre[id].Stale == 1:
			tenant = pre[id].Owner
		default:
			zeroed++
			return true
		}
		if tenant != r.Tenant {
			wantLeaked = append(wantLeaked, id)
		}
		return true
	})
	var gotLeaked []int
	resp.LeakedPages.Each(func(id int) bool { gotLeaked = append(gotLeaked, id); return true })
	require.Equal(t, wantLeaked, gotLeaked, "leaked pages")
	require.Equal(t, zeroed, resp.ZeroedPages, "zeroed pages are the read pages that held nothing")
	if resp.Path == PathPlaceholder && resp.Status == 200 {
		require.Equal(t, cfg.SlotPages, resp.ReadPages.Len(), "decode reads its whole reservation")
	}
	if resp.Leaked() {
		require.True(t, cfg.Mode == Vulnerable || len(resp.LateWriteFrom) > 0, "only the vulnerable engine or a late write leaks")
		require.Equal(t, 200, resp.Status)
		total := 0
		for _, l := range resp.Leaks {
			require.NotEqual(t, r.Tenant, l.Tenant)
			total += l.Pages
		}
		require.Equal(t, resp.LeakedPages.Len(), total)
	}
	// The body accounts for every page read, in order.
	var body Pages
	for _, seg := range resp.Body {
		seg.Pages.Each(func(id int) bool { body = body.add(id); return true })
	}
	var read Pages
	resp.ReadPages.Each(func(id int) bool { read = read.add(id); return true })
	require.Equal(t, read, body)
}

func TestFuzzCodecRoundTrip(t *testing.T) {
	for _, p := range Presets() {
		cfg, ops := scaledPreset(p)
		require.NoError(t, cfg.Validate(), p.Slug)
		require.LessOrEqual(t, cfg.PoolPages(), fuzzMaxPages)
		gotCfg, gotOps := decodeFuzz(encodeFuzz(cfg, ops))
		want := cfg
		want.Mode = Vulnerable // the fuzz runs both doors itself
		// The experiments' settings are not in the fuzz encoding.
		want.Door, want.CheckWriter, want.Gateway = DoorFromMode, false, ""
		require.Equal(t, want, gotCfg, p.Slug)
		require.Len(t, gotOps, len(ops), p.Slug)
		for i := range ops {
			if ops[i].Settle != nil {
				require.Equal(t, ops[i], gotOps[i])
				continue
			}
			a, b := *ops[i].Send, *gotOps[i].Send
			a.Content, b.Content = "", "" // contents outside the fuzz set are not kept
			if !slices.Contains(fuzzTenants, a.Tenant) {
				a.Tenant = fuzzTenants[0] // nor are the launch suite's tenants: they read as A
			}
			require.Equal(t, a, b, "%s op %d", p.Slug, i)
		}
		// The scaled preset keeps its story: same paths and statuses.
		orig, err := Replay(p.Config, p.Ops)
		require.NoError(t, err)
		small, err := Replay(cfg, ops)
		require.NoError(t, err)
		for i, r := range orig.Responses() {
			s := small.Responses()[i]
			if r.Tenant == LaunchProbeTenant {
				continue // its prompt is context − 7 of the real config: scaling does not keep that
			}
			assert.Equal(t, []any{r.Path, r.Status, r.LeakedPages.Len()}, []any{s.Path, s.Status, s.LeakedPages.Len()}, "%s response %d", p.Slug, i+1)
		}
	}
}
