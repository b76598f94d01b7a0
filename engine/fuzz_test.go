package engine

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fuzz input is a small config and up to fuzzMaxOps ops, decoded from
// bytes so that every input is a valid config (each pool at most
// fuzzMaxPages pages) and the ops land near the interesting boundaries:
// both servers' limits, the context, the two pools.
//
//	config: flags byte (bit 0 scrub, bit 1 cancel one half, bits 2–3 the
//	        allocator: fuzzAllocators[(flags>>2)&3]), then varints
//	        page-1, pool-page, dpool-page, context-1, kvBytes-1 (each
//	        reduced into range)
//	op:     kind byte; kind%8 == 7 is a settle (request byte, outcome byte:
//	        %4 = drained, timeout, error, invalid); else a send: tenant
//	        (kind>>3)&3, content (kind>>5)&3, then a size byte (%16: 0 = raw
//	        varint follows, 1 prefill's max_req_input_len-1, 2 prefill's
//	        max_req_input_len, 3 decode's max_req_input_len-1, 4 decode's
//	        max_req_input_len, 5 context-1, 6 context, 7 prefill's pool, 8
//	        decode's pool, else small: 1+size>>4) and an end byte (255 =
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
	poolTokens := func() int {
		return cfg.PageTokens + int(r.uvarint()%uint64(fuzzMaxPages*cfg.PageTokens-cfg.PageTokens+1))
	}
	cfg.PoolTokens = poolTokens()
	cfg.DecodePoolTokens = poolTokens()
	cfg.ContextTokens = 1 + int(r.uvarint()%uint64(4*max(cfg.PoolTokens, cfg.DecodePoolTokens)+64))
	cfg.KVBytesPerToken = 1 + int(r.uvarint()%100_000)
	// Decode's reserve: none, the demo's, SGLang's default, or any.
	switch (flags >> 4) & 3 {
	case 1:
		cfg.ReservedDecodeTokens = 32
	case 2:
		cfg.ReservedDecodeTokens = DefaultReservedDecodeTokens
	case 3:
		cfg.ReservedDecodeTokens = int(r.uvarint() % uint64(2*cfg.DecodePoolTokens+1))
	}
	prefill, decode := cfg.LimitsOf(ServerPrefill), cfg.LimitsOf(ServerDecode)

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
		switch size % 16 {
		case 0:
			req.PromptTokens = int(min(r.uvarint(), 1<<40))
		case 1:
			req.PromptTokens = max(1, prefill.MaxReqInputLen()-1)
		case 2:
			req.PromptTokens = max(1, prefill.MaxReqInputLen())
		case 3:
			req.PromptTokens = max(1, decode.MaxReqInputLen()-1)
		case 4:
			req.PromptTokens = max(1, decode.MaxReqInputLen())
		case 5:
			req.PromptTokens = max(1, cfg.ContextTokens-1)
		case 6:
			req.PromptTokens = cfg.ContextTokens
		case 7:
			req.PromptTokens = cfg.PoolTokens
		case 8:
			req.PromptTokens = cfg.DecodePoolTokens
		default:
			req.PromptTokens = 1 + int(size>>4)
		}
		end := r.byte()
		if end%16 != 8 {
			req.MaxNewTokens = int(end >> 4) // 0: not sent
		}
		switch {
		case end == 255:
			req.CancelAt = "bogus"
		case end%16 == 8:
			// max_new_tokens at the API's total check: one below, at and
			// one above the context (_validate_one_request).
			req.MaxNewTokens = max(0, cfg.ContextTokens-req.PromptTokens+int(end>>4)%3-1)
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
	reserve := byte(3)
	switch cfg.ReservedDecodeTokens {
	case 0:
		reserve = 0
	case 32:
		reserve = 1
	case DefaultReservedDecodeTokens:
		reserve = 2
	}
	b = append(b, flags|reserve<<4)
	for _, v := range []int{cfg.PageTokens - 1, cfg.PoolTokens - cfg.PageTokens, cfg.DecodePoolTokens - cfg.PageTokens,
		cfg.ContextTokens - 1, cfg.KVBytesPerToken - 1} {
		b = binary.AppendUvarint(b, uint64(v))
	}
	if reserve == 3 {
		b = binary.AppendUvarint(b, uint64(cfg.ReservedDecodeTokens))
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
		b = append(b, end|byte(min(r.MaxNewTokens, 15))<<4)
	}
	return b
}

// scaledPreset shrinks a preset's token counts so that both its pools fit
// the fuzz bounds while every prompt keeps its side of each server's limit
// and of the context.
func scaledPreset(p Preset) (Config, []Op) {
	cfg := p.Config
	s := (max(cfg.PagesOf(ServerPrefill), cfg.PagesOf(ServerDecode)) + fuzzMaxPages - 1) / fuzzMaxPages
	if s <= 1 {
		return cfg, clone(p.Ops)
	}
	cfg.ContextTokens /= s
	cfg.PoolTokens /= s
	cfg.DecodePoolTokens /= s
	cfg.ReservedDecodeTokens /= s
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
	// The demo's shape at page size 1 (prefill 8 tokens, decode 16, context
	// 32), cancel one half: prompts at each server's edge — both admit, the
	// leak path, both reject —, a lingering leak settled by timeout, a
	// failed transfer, the context, decode's pool.
	f.Add([]byte{2, 0, 7, 15, 31, 0, 0, 1, 0, 8, 2, 0, 16, 4, 0, 0, 3, 13, 7, 4, 1, 24, 2, 9, 8, 6, 0, 16, 8, 0})
	// Pools that are not whole pages: 3-token pages, prefill 10 tokens (3
	// pages), decode 14 (4 pages), context 41; prompts of 2, 3 and 4 tokens
	// and at each limit.
	f.Add([]byte{0, 2, 7, 11, 40, 0, 0, 0, 2, 0, 8, 0, 3, 0, 16, 0, 4, 0, 0, 1, 0, 8, 2, 0, 16, 3, 0, 24, 4, 0})
	// A prefill pool too small to read any prompt (max_req_input_len -2):
	// every prompt below decode's limit takes the leak path.
	f.Add([]byte{0, 0, 3, 63, 63, 0, 0, 0x10, 0, 8, 0x20, 0, 16, 3, 0})
	// Scrub, one half, lingering reservations then settles of each outcome.
	f.Add([]byte{3, 0, 31, 63, 100, 0, 0, 0x70, 12, 8, 0x70, 13, 16, 2, 13, 7, 1, 0, 7, 2, 1, 7, 3, 2, 24, 3, 0})
	// Prefill's pool runs out: two requests cancelled on one half at
	// prefill.transfer keep its 16 pages, so the third waits for prefill's
	// forward pass with its decode reservation held; a settle resumes it.
	f.Add([]byte{2, 0, 15, 63, 63, 0, 0, 0x70, 13, 8, 0x70, 13, 16, 0x30, 0, 7, 1, 0, 7, 2, 1, 24, 0x30, 0})
	for _, p := range Presets() {
		cfg, ops := scaledPreset(p)
		f.Add(encodeFuzz(cfg, ops))
		// Every preset under each allocator policy.
		for _, a := range Allocators {
			cfg.Allocator = a
			f.Add(encodeFuzz(cfg, ops))
		}
	}
	modes := []Mode{Vulnerable, Fixed, RetireOnly, LengthCheckOnly}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, ops := decodeFuzz(data)
		engines := map[Mode]*Engine{}
		for _, m := range modes {
			c := cfg
			c.Mode = m
			e, err := New(c)
			require.NoError(t, err, "%+v", c)
			engines[m] = e
		}
		for i, op := range ops {
			for _, m := range modes {
				fuzzApply(t, engines[m], op, i)
			}
		}
		ev := engines[Vulnerable]
		for _, m := range modes[1:] {
			e := engines[m]
			assertReleasedOnce(t, e)
			for _, r := range e.Responses() {
				// Only the length check alone answers a wrong 200: to a
				// one-token prompt prefill rejected, which its placeholder
				// covers.
				if r.WrongStatus {
					assert.Equal(t, []any{LengthCheckOnly, 1, false}, []any{m, r.Committed, r.Leaked()}, "r%d", r.Request)
				}
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
	before := capture(e)
	pre := e.SnapshotOf(ServerDecode)
	pre.t = pre.t.clone()
	heldBefore := before.Metrics.Prefill.Allocated + before.Metrics.Decode.Allocated

	err := e.Apply(op)
	if op.Settle != nil {
		lingering := slices.Contains(before.Lingering, op.Settle.Request)
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
		fuzzCheckResponse(t, e, *op.Send, pre, heldBefore == 0)
	}
	// A settle resumes waiting requests: each that no longer waits was
	// answered by it, and is checked like a send.
	for _, id := range before.Waiting {
		if r := e.Responses()[id-1]; r.State != StateWaiting {
			fuzzCheckRead(t, e, r)
		}
	}
}

// fuzzInvariants: both pools conserve their pages; every held page belongs
// to the one request that holds it for a reason (a deferred release, or a
// wait for prefill's pool with its decode reservation); the free lists hold
// every unheld page once; prefill's pool never shows a leaked page.
func fuzzInvariants(t *testing.T, e *Engine) {
	cfg := e.Config()
	m := e.Metrics()
	require.Equal(t, m.Requests, len(e.Responses()))
	require.Equal(t, m.Requests, m.Finished+m.Rejected+m.Aborted+m.Errored+m.Cancelled+m.Waiting)
	require.Equal(t, m.Waiting, len(e.Waiting()))

	wantDecode, wantPrefill := map[int]int{}, map[int]int{}
	lingering := 0
	for _, id := range e.Lingering() {
		r := e.Responses()[id-1]
		require.True(t, r.Lingering)
		require.Equal(t, StateCancelled, r.State)
		wantDecode[id] = r.Allocated
		lingering += r.Allocated
	}
	require.Equal(t, lingering, m.PagesLingering)
	for _, id := range e.Waiting() {
		r := e.Responses()[id-1]
		require.Equal(t, StateWaiting, r.State)
		require.Zero(t, r.Status)
		if r.Allocated > 0 {
			// Waiting for prefill's forward pass: decode reserved already.
			require.Equal(t, cfg.ReservedPages(r.Tokens), r.Allocated, "r%d waits with its whole reservation", id)
			wantDecode[id] = r.Allocated
		}
	}
	for _, rec := range e.reqs {
		if n := rec.prefillKV.Len(); n > 0 {
			wantPrefill[int(rec.id)] = n
		}
	}
	for _, s := range Servers {
		p := e.pools[indexOf(s)]
		pm := map[Server]PoolMetrics{ServerPrefill: m.Prefill, ServerDecode: m.Decode}[s]
		n := cfg.PagesOf(s)
		require.Equal(t, n, pm.Total, s)
		require.Equal(t, n, pm.Free+pm.Allocated, "%s: pages are conserved", s)
		snap := e.SnapshotOf(s)
		cells, err := snap.Cells(0, n-1, n)
		require.NoError(t, err)
		var allocated, stale, free, leaked int
		for _, c := range cells {
			allocated += c.Allocated
			stale += c.Stale
			free += c.Free
			leaked += c.Leaked
		}
		require.Equal(t, []int{pm.Allocated, pm.Stale, pm.Free}, []int{allocated, stale, stale + free}, s)
		if s == ServerPrefill {
			require.Zero(t, leaked, "prefill's pool never shows a leaked page: decode reads, not prefill")
		}
		// Per-page checks call t.Fatalf only when they fail: a require per
		// page would cost the fuzzer most of its time.
		got := map[int]int{}
		holder, _ := p.perPage()
		for id, h := range holder {
			if h != noRequest {
				got[int(h)]++
				if cells[id].State != PageAllocated {
					t.Fatalf("%s: page %d is held by r%d but shows %s", s, id, h, cells[id].State)
				}
			}
		}
		want := map[Server]map[int]int{ServerPrefill: wantPrefill, ServerDecode: wantDecode}[s]
		if len(want) > 0 || len(got) > 0 {
			require.Equal(t, want, got, "%s: pages held per request", s)
		}
		seen := make([]bool, n)
		ids := p.free.ids()
		for _, id := range ids {
			if seen[id] || holder[id] != noRequest {
				t.Fatalf("%s: page %d is on the free list twice (%v) or held by r%d", s, id, seen[id], holder[id])
			}
			seen[id] = true
		}
		require.Equal(t, pm.Free, len(ids))
	}
	for id, ok := range wantPrefill {
		r := e.reqs[id-1]
		inLate := slices.ContainsFunc(e.late, func(w lateWrite) bool { return w.from == r })
		require.True(t, ok > 0 && (r.linger != nil || inLate), "r%d holds prefill pages only while its half may still write", id)
	}
}

// fuzzCheckResponse checks the response to r: the path each server's
// limit sends it on, what each door answers, and what decode read
// against the decode pool as it was just before the send (pre). cold is
// whether neither pool held a page then.
func fuzzCheckResponse(t *testing.T, e *Engine, r Request, pre *Snapshot, cold bool) {
	cfg := e.Config()
	resp, ok := e.LastResponse()
	require.True(t, ok)
	require.Equal(t, r.Tenant, resp.Tenant)
	require.Equal(t, r.PromptTokens, resp.Tokens)

	prefill, decode := cfg.LimitsOf(ServerPrefill), cfg.LimitsOf(ServerDecode)
	switch {
	case r.PromptTokens >= cfg.ContextTokens || prefill.OverTotal(r.PromptTokens, r.MaxNewTokens):
		require.Equal(t, PathAPIReject, resp.Path)
		require.Equal(t, 400, resp.Status)
		require.Zero(t, resp.Allocated, "the API refuses before any page")
	case prefill.Rejects(r.PromptTokens) || decode.Rejects(r.PromptTokens):
		require.Equal(t, PathPlaceholder, resp.Path)
		require.Equal(t, prefill.Rejects(r.PromptTokens), resp.PrefillRejected)
		require.Equal(t, decode.Rejects(r.PromptTokens), resp.DecodeRejected)
		if cfg.Mode.perServer() && !resp.DecodeRejected {
			// #38935: decode admitted the prompt, preallocates, and
			// answers 500 when no KV comes; it reads nothing.
			require.Contains(t, []int{0, 500}, resp.Status, "%s: decode's answer in the window", cfg.Mode)
			require.Zero(t, resp.Committed)
		} else if cfg.Mode.retires() {
			require.Equal(t, 400, resp.Status, "%s never answers 200 to a prompt over a limit", cfg.Mode)
			lim := prefill
			if resp.DecodeRejected {
				lim = decode // the router returns decode's answer
			}
			require.Equal(t, inputLengthMessage(r.PromptTokens, lim.MaxReqInputLen()), resp.Reason)
			require.Zero(t, resp.Allocated, "a rejected request allocates nothing")
		}
		if resp.DecodeRejected {
			// Decode's own pending abort: check_finished answers it after
			// decode ran, whatever the door.
			require.NotEqual(t, 200, resp.Status, "decode never answers 200 to a prompt its intake rejected")
		}
		if cfg.Mode.checksLength() && resp.Status == 200 {
			// The length check passes only a transfer as long as what
			// decode commits: a one-token prompt, as long as prefill's
			// placeholder (a pool too small to read any prompt). Decode
			// then attends over the one position prefill wrote.
			require.Equal(t, []int{1, 1}, []int{resp.Sent, resp.Committed}, "%s answers 200 to a prompt over a limit only when the placeholder covers it", cfg.Mode)
			require.False(t, resp.Leaked())
		}
		if resp.DecodeRejected && resp.Status == 400 && resp.Allocated > 0 {
			require.Equal(t, inputLengthMessage(r.PromptTokens, decode.MaxReqInputLen()), resp.Reason, "decode's check_finished answers with its own message")
			require.True(t, !resp.Leaked() || len(resp.LateWriteFrom) > 0, "decode attended over its own placeholder only, unless a late write landed in it")
		}
	default:
		require.Equal(t, PathNormal, resp.Path)
		require.False(t, resp.PrefillRejected || resp.DecodeRejected)
	}
	require.Equal(t, resp.Status == 200 && resp.Path == PathPlaceholder, resp.WrongStatus)
	if !prefill.OverTotal(r.PromptTokens, r.MaxNewTokens) {
		require.Equal(t, cfg.Window().Contains(r.PromptTokens), resp.Path == PathPlaceholder && !resp.DecodeRejected, "the window is the leak path's lengths")
	}
	// Each server's limit must mean it: on pools nobody holds, a request
	// both intakes passed can always reserve and build its pages.
	// — unless decode's prealloc budget (its reserve, or the prompt's
	// growth) is more than its whole pool: then it waits for good.
	if cold && resp.State == StateWaiting {
		require.NotEmpty(t, cfg.neverPrealloc(&resp), "empty pools cannot be short for a prompt intake accepted and the budget fits: %+v", resp)
	} else if cold {
		require.NotEqual(t, StateWaiting, resp.State, "empty pools cannot be short for a prompt intake accepted")
	}
	if resp.State == StateWaiting {
		require.Zero(t, resp.Status)
		return
	}
	fuzzCheckRead(t, e, resp)
	if resp.Committed == 0 {
		return
	}

	// The leak, page by page: a page decode read holds, in its first
	// position, the request's own KV if prefill's transfer wrote it (and no
	// late write landed in it since), the late writer's if one did, and
	// otherwise whatever the page held before the send.
	late := map[int]string{}
	for _, ev := range e.Log().Copy() {
		if ev.Victim == resp.Request {
			ev.Pages.Each(func(id int) bool { late[id] = ev.Tenant; return true })
		}
	}
	own := resp.ReadPages.Head((resp.Sent + cfg.PageTokens - 1) / cfg.PageTokens)
	var wantLeaked []int
	zeroed := 0
	resp.ReadPages.Each(func(id int) bool {
		tenant, ok := late[id]
		switch {
		case ok:
		case own.Contains(id):
			tenant = r.Tenant
		case writerAt(pre, id) != noRequest:
			tenant = e.TenantOf(int(writerAt(pre, id)))
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
	require.Equal(t, zeroed, resp.ZeroedPages, "zeroed pages are the read pages whose first position held nothing")
}

// fuzzCheckRead checks what decode attended over for a response that is
// no longer waiting: it read pagesFor(Committed) pages of its reservation
// — the prompt when decode admitted it, its placeholder when not — and the
// positions it counts as its own, another tenant's and nobody's are those
// pages' positions as they were at the read, Snapshot.Page by page.
func fuzzCheckRead(t *testing.T, e *Engine, resp Response) {
	cfg := e.Config()
	if resp.ReadStep == 0 {
		require.Empty(t, resp.ReadPages, "r%d: no read, no pages", resp.Request)
		require.Zero(t, resp.Committed)
		require.False(t, resp.Leaked())
		if resp.Status == 200 {
			require.LessOrEqual(t, resp.MaxNew, 1, "r%d: a 200 carries what decode read, unless it had no token to decode", resp.Request)
		}
		return
	}
	require.Equal(t, 200, resp.Status, "r%d: only a 200 follows a read: decode's own 400 ends in its prebuilt batch, unread", resp.Request)
	if resp.Status == 200 {
		require.Equal(t, StateFinished, resp.State)
	}
	fill := resp.Tokens
	if resp.DecodeRejected {
		fill = 1
	}
	require.Equal(t, fill, resp.Reserved, "r%d: decode reserves fill_len", resp.Request)
	require.Equal(t, fill, resp.Committed, "r%d: and commits it", resp.Request)
	require.Equal(t, cfg.ReservedPages(resp.Tokens), resp.Allocated)
	require.Equal(t, (fill+cfg.PageTokens-1)/cfg.PageTokens, resp.ReadPages.Len(), "r%d: decode reads pagesFor(Committed) pages", resp.Request)
	require.Equal(t, resp.Committed, resp.OwnTokens+resp.ForeignTokens+resp.EmptyTokens, "r%d: every committed position is someone's or nobody's", resp.Request)
	require.Equal(t, resp.ForeignTokens > 0, resp.Leaked())
	prefillTokens := resp.Tokens
	if resp.PrefillRejected {
		prefillTokens = 1
	}
	require.Equal(t, min(prefillTokens, fill), resp.Sent, "r%d: prefill sends what it built, as far as decode reserved", resp.Request)

	// Recount the positions from the pool at the read.
	at, err := e.SnapshotAt(resp.ReadStep)
	require.NoError(t, err)
	tenant := func(w int) string { return e.TenantOf(w) }
	own, foreign, empty, seen := 0, map[string]int{}, 0, 0
	leakedPages, mixed := Pages{}, Pages{}
	resp.ReadPages.Each(func(id int) bool {
		// A page one writer (or none) holds is that writer's in every
		// position; Page tells the runs of the others.
		w := int(writerAt(at, id))
		runs := []PositionRun{{First: 0, Last: cfg.PageTokens - 1, Writer: w, Tenant: e.TenantOf(w)}}
		if _, ok := at.t.partial[int32(id)]; ok {
			info, err := at.Page(id)
			require.NoError(t, err)
			require.NotNil(t, info.Positions)
			runs = info.Positions
			require.Equal(t, info.Writer, runs[0].Writer, "page %d: the writer is its first position's", id)
		}
		for k, run := range runs {
			n := min(run.Last, resp.Committed-seen-1) - run.First + 1
			if n <= 0 {
				break
			}
			switch {
			case run.Writer == noRequest:
				empty += n
			case tenant(run.Writer) == resp.Tenant:
				own += n
			default:
				foreign[run.Tenant] += n
				switch {
				case k == 0:
					leakedPages = leakedPages.add(id)
				case tenant(runs[0].Writer) == resp.Tenant:
					mixed = mixed.add(id) // its first position is the reader's
				}
			}
		}
		seen += cfg.PageTokens
		return true
	})
	total := 0
	for _, l := range resp.Leaks {
		require.NotEqual(t, resp.Tenant, l.Tenant)
		require.Equal(t, foreign[l.Tenant], l.Tokens, "r%d: tenant %s's positions", resp.Request, l.Tenant)
		total += l.Tokens
		delete(foreign, l.Tenant)
	}
	require.Empty(t, foreign, "r%d: every foreign tenant is in Leaks", resp.Request)
	require.Equal(t, []int{own, total, empty}, []int{resp.OwnTokens, resp.ForeignTokens, resp.EmptyTokens}, "r%d: own, foreign, empty positions", resp.Request)
	require.Equal(t, leakedPages.Len(), resp.LeakedPages.Len(), "r%d: leaked pages are those whose first position is another tenant's", resp.Request)
	require.True(t, containsAll(resp.ReadPages, resp.LeakedPages), "r%d: leaked pages are read pages", resp.Request)
	require.True(t, containsAll(resp.ReadPages, resp.MixedPages), "r%d: mixed pages are read pages", resp.Request)
	require.Equal(t, sortedIDs(mixed), sortedIDs(resp.MixedPages), "r%d: mixed pages", resp.Request)
	require.Equal(t, sortedIDs(resp.MixedPages), idsOf(resp.MixedPages), "r%d: mixed pages in page order", resp.Request)
	pages := 0
	for _, l := range resp.Leaks {
		pages += l.Pages
	}
	require.Equal(t, resp.LeakedPages.Len(), pages)
	// The body accounts for every page read, in order.
	var body Pages
	for _, seg := range resp.Body {
		seg.Pages.Each(func(id int) bool { body = body.add(id); return true })
	}
	var read Pages
	resp.ReadPages.Each(func(id int) bool { read = read.add(id); return true })
	require.Equal(t, read, body)
}

// idsOf lists p's page ids in its order; sortedIDs in page order.
func idsOf(p Pages) []int {
	var ids []int
	p.Each(func(id int) bool { ids = append(ids, id); return true })
	return ids
}

func sortedIDs(p Pages) []int { return slices.Sorted(slices.Values(idsOf(p))) }

// containsAll reports whether every page of sub is in p.
func containsAll(p, sub Pages) bool {
	ok := true
	sub.Each(func(id int) bool { ok = p.Contains(id); return ok })
	return ok
}

func TestFuzzCodecRoundTrip(t *testing.T) {
	for _, p := range Presets() {
		cfg, ops := scaledPreset(p)
		require.NoError(t, cfg.Validate(), p.Slug)
		require.LessOrEqual(t, cfg.PagesOf(ServerPrefill), fuzzMaxPages)
		require.LessOrEqual(t, cfg.PagesOf(ServerDecode), fuzzMaxPages)
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
			assert.Equal(t, []any{r.Path, r.PrefillRejected, r.DecodeRejected, r.Status, r.Leaked()},
				[]any{s.Path, s.PrefillRejected, s.DecodeRejected, s.Status, s.Leaked()}, "%s response %d", p.Slug, i+1)
		}
	}
}
