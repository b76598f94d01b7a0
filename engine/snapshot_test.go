package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refPool is a reference model of one server's pool, rebuilt from the
// public log and responses alone, one writer per token position. On
// decode's pool a decode.prealloc event reserves its pages, a
// prefill.transfer event writes the first positions of them, and a
// request's release event frees them — except the deferral, which only
// announces that they stay held. On prefill's, a prefill.forward event
// reserves and writes its pages and a release event frees them. A transfer
// copies whole pages: past the last position sent, decode's last page
// takes what the request's page in prefill's pool holds, so decode's model
// keeps prefill's beside it.
type refPool struct {
	server     Server
	holder     []int
	pos        [][]int // writer of each position of each page
	pageTokens int
	scrub      bool
	built      map[int]Pages // prefill's: each request's forward pages
	prefill    *refPool      // decode's: the sender's pool
}

func newRefPool(e *Engine, server Server) *refPool {
	cfg := e.Config()
	n := cfg.PagesOf(server)
	p := &refPool{server: server, holder: make([]int, n), pos: make([][]int, n), pageTokens: cfg.PageTokens, scrub: cfg.ScrubOnFree, built: map[int]Pages{}}
	for id := range p.pos {
		p.pos[id] = make([]int, cfg.PageTokens)
	}
	if server == ServerDecode {
		p.prefill = newRefPool(e, ServerPrefill)
	}
	return p
}

// builtBy is how many positions request n's prefill half builds (forward)
// and how many of them it sends into decode's reservation (transfer), from
// its response: its placeholder when prefill rejected the prompt.
func builtBy(e *Engine, n int) (built, sent int) {
	r := e.Responses()[n-1]
	built = r.Tokens
	if r.PrefillRejected {
		built = 1
	}
	return built, min(built, r.Reserved)
}

// write makes request req the writer of the first n positions of pages.
func (p *refPool) write(pages Pages, req, n int) {
	k := 0
	pages.Each(func(id int) bool {
		for i := 0; i < p.pageTokens && k < n; i++ {
			p.pos[id][i] = req
			k++
		}
		return true
	})
}

func (p *refPool) apply(e *Engine, ev Event) {
	if p.prefill != nil {
		defer p.prefill.apply(e, ev) // after decode's copy has read it
	}
	if ev.Pool != p.server {
		return
	}
	built, sent := builtBy(e, max(ev.Request, 1))
	switch {
	case ev.Stage == StageDecodePrealloc || ev.Stage == StagePrefillForward:
		ev.Pages.Each(func(id int) bool { p.holder[id] = ev.Request; return true })
		if ev.Stage == StagePrefillForward {
			p.write(ev.Pages, ev.Request, built)
			p.built[ev.Request] = ev.Pages
		}
	case ev.Stage == StagePrefillTransfer:
		p.write(ev.Pages, ev.Request, sent)
		if k := sent % p.pageTokens; k != 0 && len(ev.Pages) > 0 {
			if src := p.prefill.built[ev.Request].Tail(sent / p.pageTokens).Head(1); len(src) > 0 {
				into := ev.Pages.Tail(sent / p.pageTokens).Head(1)
				copy(p.pos[into[0].First][k:], p.prefill.pos[src[0].First][k:])
			}
		}
	case ev.Stage == StageRelease && !isDeferral(ev):
		ev.Pages.Each(func(id int) bool {
			p.holder[id] = 0
			if p.scrub {
				clear(p.pos[id])
			}
			return true
		})
	}
}

// refPage is what the reference model says Page(id) is at step.
func refPage(e *Engine, p *refPool, step, id int) PageInfo {
	info := PageInfo{ID: id, Writer: p.pos[id][0], Holder: p.holder[id]}
	info.WriterTenant, info.HolderTenant = e.TenantOf(info.Writer), e.TenantOf(info.Holder)
	if info.Writer != 0 {
		info.Text = "tenant-" + info.WriterTenant + ":" + contentOf(e, info.Writer)
	}
	for i, w := range p.pos[id] {
		if i == 0 || w != p.pos[id][i-1] {
			info.Positions = append(info.Positions, PositionRun{First: i, Writer: w, Tenant: e.TenantOf(w)})
		}
		info.Positions[len(info.Positions)-1].Last = i
	}
	if len(info.Positions) == 1 {
		info.Positions = nil // one writer, or none, holds them all
	}
	info.Owner = info.WriterTenant
	if info.Owner == "" {
		info.Owner = info.HolderTenant
	}
	decode := p.server == ServerDecode
	// The last response visible at step: its response event or its read.
	var last *Response
	for i := range e.Responses() {
		r := e.Responses()[i]
		if r.Step <= step || (r.ReadStep != 0 && r.ReadStep <= step) {
			last = &r
		}
	}
	for i := len(e.Responses()) - 1; i >= 0 && decode; i-- {
		r := e.Responses()[i]
		if (r.Step <= step || (r.ReadStep != 0 && r.ReadStep <= step)) && r.ReadPages.Contains(id) {
			info.Reader, info.ReaderTenant = r.Request, r.Tenant
			break
		}
	}
	switch {
	case decode && last != nil && last.LeakedPages.Contains(id):
		info.State = PageLeaked // only decode reads another tenant's pages
	case info.Holder != 0:
		info.State = PageAllocated
	case info.Writer != 0:
		info.State = PageStale
	default:
		info.State = PageFree
	}
	if info.Holder != 0 && decode {
		// A reservation lingers from the event in which decode defers its release.
		for _, ev := range e.Log().Copy()[:step] {
			if ev.Request == info.Holder && isDeferral(ev) {
				info.Lingering = true
			}
		}
	}
	return info
}

// contentOf is what request n's pages hold: its placeholder when prefill
// rejected its prompt.
func contentOf(e *Engine, n int) string {
	r := e.Responses()[n-1]
	if r.PrefillRejected {
		return PlaceholderContent
	}
	c := e.reqs[n-1].req.Content
	if c == "" {
		return "prompt"
	}
	return c
}

// Every page of both pools at every step of every preset small enough to
// walk matches the reference model, token position by position.
func TestSnapshotAtMatchesReference(t *testing.T) {
	scenarios := map[string]*Engine{}
	for _, slug := range []string{"demo", "demo-fixed", "symmetric", "scrub", "abort-one-half", "abort-both", "late-write", "door-errored", "door-aborted"} {
		scenarios[slug] = replayPreset(t, slug)
	}
	// The abort run on a decode pool that admits what prefill rejects: once
	// A's release is drained, C's 20 tokens leak.
	p, _ := PresetBySlug("abort-one-half")
	p.Config.DecodePoolTokens = 32
	settled, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	require.NoError(t, settled.Settle(1, OutcomeDrained))
	require.True(t, send(t, settled, Request{Tenant: "C", PromptTokens: 20}).Leaked())
	scenarios["abort-one-half+drain+leak"] = settled
	// Two-token pages: writes that end inside pages, a request waiting for
	// prefill's pool, a late write and a prompt both servers reject. Each
	// request asks for 2 new tokens, so that it fits decode's prealloc
	// budget beside the pages others hold (SGLang's default, clamped by
	// init_req_max_new_tokens, would make each need nearly the whole pool).
	mixed := newEngine(t, Config{ContextTokens: 64, PoolTokens: 24, DecodePoolTokens: 48, PageTokens: 2,
		Mode: Vulnerable, Cancel: CancelOneHalf, ScrubOnFree: false, KVBytesPerToken: 1})
	for _, r := range []Request{
		{Tenant: "A", PromptTokens: 7, Content: "a"}, {Tenant: "B", PromptTokens: 30},
		{Tenant: "C", PromptTokens: 5, CancelAt: StagePrefillForward}, {Tenant: "A", PromptTokens: 40, FailTransfer: true},
		{Tenant: "B", PromptTokens: 26}, {Tenant: "C", PromptTokens: 3, CancelAt: StageDecodeRunning},
		{Tenant: "D", PromptTokens: 17, CancelAt: StagePrefillTransfer}, {Tenant: "A", PromptTokens: 10},
	} {
		r.MaxNewTokens = 2
		send(t, mixed, r)
	}
	require.Equal(t, []int{8}, mixed.Waiting(), "r8 waits for prefill's pool, which r7 holds")
	require.NoError(t, mixed.Settle(7, OutcomeDrained))
	require.NoError(t, mixed.Settle(3, OutcomeTimeout))
	send(t, mixed, Request{Tenant: "A", PromptTokens: 50})
	scenarios["mixed"] = mixed
	// Four-token pages: a transfer drained, or landing late after a timeout,
	// copies whole pages too — decode's last page of A's takes the tail of
	// A's page in prefill's pool, which holds X's stale KV.
	for _, o := range []Outcome{OutcomeDrained, OutcomeTimeout} {
		tails := newEngine(t, Config{ContextTokens: 64, PoolTokens: 16, DecodePoolTokens: 64, PageTokens: 4,
			Mode: Vulnerable, Cancel: CancelOneHalf, KVBytesPerToken: 1})
		for _, r := range []Request{
			{Tenant: "X", PromptTokens: 8}, {Tenant: "Y", PromptTokens: 8},
			{Tenant: "A", PromptTokens: 5, CancelAt: StagePrefillTransfer},
		} {
			r.MaxNewTokens = 2
			send(t, tails, r)
		}
		require.NoError(t, tails.Settle(3, o))
		send(t, tails, Request{Tenant: "Z", PromptTokens: 2, MaxNewTokens: 2}) // the late write lands in its transfer
		require.Contains(t, textOf(eventsOf(tails.Log().Copy(), 3), StagePrefillTransfer), "tenant X's KV (r1) in positions 1–3")
		scenarios["page-tails+"+string(o)] = tails
	}

	for name, e := range scenarios {
		for _, server := range Servers {
			t.Run(name+"/"+string(server), func(t *testing.T) {
				n := e.Config().PagesOf(server)
				ref := newRefPool(e, server)
				want := make([][]PageInfo, e.Log().Len()+1) // every page at every step
				for step := 0; step <= e.Log().Len(); step++ {
					if step > 0 {
						ref.apply(e, *e.Log().At(step - 1))
					}
					s, err := e.SnapshotAtOf(server, step)
					require.NoError(t, err)
					require.Equal(t, step, s.Step())
					require.Equal(t, server, s.Server())
					require.Equal(t, n, s.Pages())
					for id := range n {
						got, err := s.Page(id)
						require.NoError(t, err)
						require.Equal(t, refPage(e, ref, step, id), got, "step %d page %d", step, id)
						want[step] = append(want[step], got)
					}
					free, held, stale := s.Occupancy()
					require.Equal(t, occupancy(want[step]), [3]int{free, held, stale}, "step %d: the kept counts", step)
				}
				// Back and forth in a random order: ViewAt moves its table by
				// undoing steps as well as redoing them, positions included.
				r := rand.New(rand.NewPCG(uint64(len(name)), 7))
				for range 3 * len(want) {
					step := r.IntN(len(want))
					at := func(step int) (*Snapshot, error) { return e.SnapshotAtOf(server, step) }
					if r.IntN(2) == 0 {
						at = func(step int) (*Snapshot, error) { return e.ViewAtOf(server, step) } // the same pool, without the copy
					}
					s, err := at(step)
					require.NoError(t, err)
					for id := range n {
						got, _ := s.Page(id)
						require.Equal(t, want[step][id], got, "step %d page %d, visited out of order", step, id)
					}
					free, held, stale := s.Occupancy()
					require.Equal(t, n, free+held+stale)
					require.Equal(t, occupancy(want[step]), [3]int{free, held, stale}, "step %d, out of order", step)
				}
				// The last step is the live pool.
				live := e.SnapshotOf(server)
				for id := range n {
					a, _ := live.Page(id)
					assert.Equal(t, refPage(e, ref, e.Log().Len(), id), a)
				}
			})
		}
	}
}

// occupancy counts pages as Snapshot.Occupancy does: free, held, stale.
func occupancy(pages []PageInfo) [3]int {
	var c [3]int
	for _, p := range pages {
		switch {
		case p.Holder != 0:
			c[1]++
		case p.Writer != 0:
			c[2]++
		default:
			c[0]++
		}
	}
	return c
}

// Page 1 of the demo: free, reserved for A, written by A, stale once A is
// done, reserved again for B — and leaked when B's decode reads it.
func TestSnapshotDemoPageOneStates(t *testing.T) {
	e := replayPreset(t, "demo")
	var got []PageState
	var owners []string
	for step := 0; step <= e.Log().Len(); step++ {
		s, err := e.SnapshotAt(step)
		require.NoError(t, err)
		p, err := s.Page(1)
		require.NoError(t, err)
		if len(got) == 0 || got[len(got)-1] != p.State {
			got = append(got, p.State)
			owners = append(owners, p.Owner)
		}
	}
	assert.Equal(t, []PageState{PageFree, PageAllocated, PageStale, PageAllocated, PageLeaked}, got)
	assert.Equal(t, []string{"", "A", "A", "A", "A"}, owners, "the page keeps A's KV throughout")

	at := func(step, id int) PageInfo {
		s, err := e.SnapshotAt(step)
		require.NoError(t, err)
		p, err := s.Page(id)
		require.NoError(t, err)
		return p
	}
	events := e.Log().Copy()
	b := e.Responses()[1]
	// B's prealloc reserves it; A's KV is still there.
	p := at(stepOf(t, events, 2, StageDecodePrealloc, ServerDecode), 1)
	assert.Equal(t, PageInfo{ID: 1, State: PageAllocated, Owner: "A", Writer: 1, WriterTenant: "A",
		Holder: 2, HolderTenant: "B", Reader: 1, ReaderTenant: "A", Text: "tenant-A:" + DemoSecret}, p)
	// B's decode reads it.
	p = at(b.ReadStep, 1)
	assert.Equal(t, PageLeaked, p.State)
	assert.Equal(t, 2, p.Reader)
	assert.Equal(t, "B", p.ReaderTenant)
	// Page 0 holds B's own placeholder in its first position by then — not
	// leaked, as the page goes by its first position —, and A's stale KV
	// in the other fifteen.
	p = at(b.ReadStep, 0)
	assert.Equal(t, PageAllocated, p.State)
	assert.Equal(t, "tenant-B:"+PlaceholderContent, p.Text)
	assert.Equal(t, []PositionRun{{First: 0, Last: 0, Writer: 2, Tenant: "B"}, {First: 1, Last: 15, Writer: 1, Tenant: "A"}}, p.Positions)
	// After the release the leaked pages stay marked for the last response.
	released := stepOf(t, events, 2, StageRelease, ServerDecode)
	p = at(released, 1)
	assert.Equal(t, PageLeaked, p.State)
	assert.Zero(t, p.Holder)
	assert.Equal(t, PageStale, at(released, 0).State)

	last, ok := e.Snapshot().LastResponse()
	require.True(t, ok)
	assert.Equal(t, 2, last.Request)
	s0, _ := e.SnapshotAt(0)
	_, ok = s0.LastResponse()
	assert.False(t, ok)
	s8, _ := e.SnapshotAt(e.Responses()[0].ReadStep) // r1's read: its response is visible from here
	last, ok = s8.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 1, last.Request)
}

func TestSnapshotLingering(t *testing.T) {
	e := replayPreset(t, "abort-one-half")
	p, err := e.Snapshot().Page(0)
	require.NoError(t, err)
	assert.True(t, p.Lingering)
	assert.Equal(t, PageAllocated, p.State)
	assert.Equal(t, 1, p.Holder)
	p, _ = e.Snapshot().Page(8)
	assert.False(t, p.Lingering)
	require.NoError(t, e.Settle(1, OutcomeTimeout))
	p, _ = e.Snapshot().Page(0)
	assert.False(t, p.Lingering)
	assert.Equal(t, PageFree, p.State)
}

func TestSnapshotBadArguments(t *testing.T) {
	e := replayPreset(t, "demo")
	n := e.Log().Len()
	for _, step := range []int{-1, n + 1, -1 << 62, 1 << 62} {
		s, err := e.SnapshotAt(step)
		assert.Nil(t, s)
		assert.EqualError(t, err, fmt.Sprintf("step %d: must be between 0 and %d", step, n))
	}
	s, err := e.SnapshotAt(n)
	require.NoError(t, err)
	assert.Equal(t, n, s.Step())
	for _, id := range []int{-1, 10, 1 << 40} {
		_, err := s.Page(id)
		assert.EqualError(t, err, fmt.Sprintf("page %d: must be between 0 and 9", id), "decode's 10 pages")
	}
	s, err = e.SnapshotAtOf(ServerPrefill, n)
	require.NoError(t, err)
	_, err = s.Page(8)
	assert.EqualError(t, err, "page 8: must be between 0 and 7", "prefill's 8 pages")
	for _, server := range Servers {
		_, err := e.ViewAtOf(server, n+1)
		assert.EqualError(t, err, fmt.Sprintf("step %d: must be between 0 and %d", n+1, n))
	}
	empty := newEngine(t, DemoConfig())
	s, err = empty.SnapshotAt(0)
	require.NoError(t, err)
	assert.Zero(t, s.Step())
	_, err = empty.SnapshotAt(1)
	assert.Error(t, err)
}

// A snapshot of an earlier step does not share the live pool: later sends
// leave it as it was.
func TestSnapshotAtIsACopy(t *testing.T) {
	e := replayPreset(t, "demo")
	s, err := e.SnapshotAt(10)
	require.NoError(t, err)
	before, _ := s.Page(0)
	send(t, e, Request{Tenant: "C", PromptTokens: 8})
	for _, step := range []int{0, 3, 25} { // ViewAt moves the kept table
		_, err := e.ViewAt(step)
		require.NoError(t, err)
	}
	after, _ := s.Page(0)
	assert.Equal(t, before.Writer, after.Writer)
	assert.Equal(t, before.Holder, after.Holder)
}

// A deferred slot lingers from the very event that defers its release.
func TestPageLingersFromTheDeferEvent(t *testing.T) {
	p, ok := PresetBySlug("abort-one-half")
	require.True(t, ok)
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	defer7 := 0
	for _, ev := range e.Log().Copy() {
		if ev.Stage == StageRelease && ev.Request == 1 {
			defer7 = ev.Step
			break
		}
	}
	require.NotZero(t, defer7)
	for step, want := range map[int]bool{defer7 - 1: false, defer7: true, e.Log().Len(): true} {
		snap, err := e.SnapshotAt(step)
		require.NoError(t, err)
		page, err := snap.Page(0)
		require.NoError(t, err)
		assert.Equal(t, want, page.Lingering, "step %d", step)
	}
	require.NoError(t, e.Settle(1, OutcomeTimeout))
	page, err := e.Snapshot().Page(0)
	require.NoError(t, err)
	assert.False(t, page.Lingering, "freed after the timeout")
}

// A response seen at an earlier step lingers as it did then: a release
// settled later must not show before it happens.
func TestLastResponseLingersAsAtItsStep(t *testing.T) {
	p, ok := PresetBySlug("late-write")
	require.True(t, ok)
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	lingering := map[bool]int{}
	for step := 1; step <= e.Log().Len(); step++ {
		snap, err := e.SnapshotAt(step)
		require.NoError(t, err)
		if r, ok := snap.LastResponse(); ok && r.Request == 1 {
			lingering[r.Lingering]++
		}
	}
	assert.Positive(t, lingering[true], "r1's decode half holds its pages until the settle")
	assert.False(t, e.Responses()[0].Lingering, "settled by the end")
}

// A cancelled request's announcement says no response came, as the page
// shows no status for it.
func TestCancelledAnnouncementNamesNoStatus(t *testing.T) {
	p, _ := PresetBySlug("abort-both")
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	r := e.Responses()[0]
	require.Equal(t, StateCancelled, r.State)
	assert.Equal(t, "Request 1 from tenant A: no response. "+r.Verdict(), r.Announcement())
}

// A request that waits in DecodePreallocQueue shows as waiting from the
// step it starts waiting, not before it was sent.
func TestWaitingResponseShowsFromItsWait(t *testing.T) {
	p, ok := PresetBySlug("door-aborted")
	require.True(t, ok)
	e, err := Replay(p.Config, p.Ops)
	require.NoError(t, err)
	waiting := e.Waiting()
	require.NotEmpty(t, waiting)
	r := e.Responses()[waiting[0]-1]
	require.Equal(t, StateWaiting, r.State)
	require.Positive(t, r.Step)
	before, err := e.SnapshotAt(r.Step - 1)
	require.NoError(t, err)
	last, ok := before.LastResponse()
	assert.False(t, ok && last.Request == r.Request, "not shown before it waits")
	at, err := e.SnapshotAt(r.Step)
	require.NoError(t, err)
	last, ok = at.LastResponse()
	require.True(t, ok)
	assert.Equal(t, r.Request, last.Request)
	assert.Equal(t, StageDecodePrealloc, e.Log().At(r.Step-1).Stage, "the step of its wait")
}
