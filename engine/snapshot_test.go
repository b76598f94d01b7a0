package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refPool is a reference model of the pool, rebuilt from the public log
// alone: a decode.prealloc event reserves its pages, a prefill.transfer
// event writes them, and a request's release event frees them — except the
// deferral, which only announces that they stay held.
type refPool struct {
	holder, writer []int
	scrub          bool
}

func newRefPool(pages int, scrub bool) *refPool {
	return &refPool{holder: make([]int, pages), writer: make([]int, pages), scrub: scrub}
}

func (p *refPool) apply(ev Event) {
	ev.Pages.Each(func(id int) bool {
		switch {
		case ev.Stage == StageDecodePrealloc:
			p.holder[id] = ev.Request
		case ev.Stage == StagePrefillTransfer:
			p.writer[id] = ev.Request
		case ev.Stage == StageRelease && !isDeferral(ev):
			p.holder[id] = 0
			if p.scrub {
				p.writer[id] = 0
			}
		}
		return true
	})
}

// refPage is what the reference model says Page(id) is at step.
func refPage(e *Engine, p *refPool, step, id int) PageInfo {
	info := PageInfo{ID: id, Writer: p.writer[id], Holder: p.holder[id]}
	info.WriterTenant, info.HolderTenant = e.TenantOf(info.Writer), e.TenantOf(info.Holder)
	if info.Writer != 0 {
		info.Text = "tenant-" + info.WriterTenant + ":" + contentOf(e, info.Writer)
	}
	info.Owner = info.WriterTenant
	if info.Owner == "" {
		info.Owner = info.HolderTenant
	}
	// The last response visible at step: its response event or its read.
	var last *Response
	for i := range e.Responses() {
		r := e.Responses()[i]
		if r.Step <= step || (r.ReadStep != 0 && r.ReadStep <= step) {
			last = &r
		}
	}
	for i := len(e.Responses()) - 1; i >= 0; i-- {
		r := e.Responses()[i]
		if (r.Step <= step || (r.ReadStep != 0 && r.ReadStep <= step)) && r.ReadPages.Contains(id) {
			info.Reader, info.ReaderTenant = r.Request, r.Tenant
			break
		}
	}
	switch {
	case last != nil && last.LeakedPages.Contains(id):
		info.State = PageLeaked
	case info.Holder != 0:
		info.State = PageAllocated
	case info.Writer != 0:
		info.State = PageStale
	default:
		info.State = PageFree
	}
	if info.Holder != 0 {
		// A slot lingers from the event in which decode defers its release.
		for _, ev := range e.Log().Copy()[:step] {
			if ev.Request == info.Holder && isDeferral(ev) {
				info.Lingering = true
			}
		}
	}
	return info
}

// contentOf is what request n's pages hold.
func contentOf(e *Engine, n int) string {
	r := e.Responses()[n-1]
	if r.Path == PathPlaceholder {
		return PlaceholderContent
	}
	c := e.reqs[n-1].req.Content
	if c == "" {
		return "prompt"
	}
	return c
}

// Every page at every step of every preset small enough to walk matches the
// reference model.
func TestSnapshotAtMatchesReference(t *testing.T) {
	scenarios := map[string]*Engine{}
	for _, slug := range []string{"demo", "demo-fixed", "scrub", "abort-one-half", "abort-both"} {
		scenarios[slug] = replayPreset(t, slug)
	}
	settled := replayPreset(t, "abort-one-half")
	require.NoError(t, settled.Settle(1, OutcomeDrained))
	send(t, settled, Request{Tenant: "C", PromptTokens: 20})
	scenarios["abort-one-half+drain+leak"] = settled
	mixed := newEngine(t, Config{ContextTokens: 64, PoolTokens: 24, PageTokens: 2, SlotPages: 4,
		Mode: Vulnerable, Cancel: CancelOneHalf, ScrubOnFree: false, KVBytesPerToken: 1})
	for _, r := range []Request{
		{Tenant: "A", PromptTokens: 7, Content: "a"}, {Tenant: "B", PromptTokens: 30},
		{Tenant: "C", PromptTokens: 5, CancelAt: StagePrefillForward}, {Tenant: "A", PromptTokens: 40, FailTransfer: true},
		{Tenant: "B", PromptTokens: 26}, {Tenant: "C", PromptTokens: 3, CancelAt: StageDecodeRunning},
	} {
		send(t, mixed, r)
	}
	require.NoError(t, mixed.Settle(3, OutcomeTimeout))
	send(t, mixed, Request{Tenant: "A", PromptTokens: 50})
	scenarios["mixed"] = mixed

	for name, e := range scenarios {
		t.Run(name, func(t *testing.T) {
			n := e.Metrics().PagesTotal
			ref := newRefPool(n, e.Config().ScrubOnFree)
			want := make([][]PageInfo, e.Log().Len()+1) // every page at every step
			for step := 0; step <= e.Log().Len(); step++ {
				if step > 0 {
					ref.apply(*e.Log().At(step - 1))
				}
				s, err := e.SnapshotAt(step)
				require.NoError(t, err)
				require.Equal(t, step, s.Step())
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
			// Back and forth in a random order: SnapshotAt moves its table
			// by undoing steps as well as redoing them.
			r := rand.New(rand.NewPCG(uint64(len(name)), 7))
			for range 3 * len(want) {
				step := r.IntN(len(want))
				at := e.SnapshotAt
				if r.IntN(2) == 0 {
					at = e.ViewAt // the same pool, without the copy
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
			live := e.Snapshot()
			for id := range n {
				a, _ := live.Page(id)
				assert.Equal(t, refPage(e, ref, e.Log().Len(), id), a)
			}
		})
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
	// Step 14: B reserves it; A's KV is still there.
	p := at(14, 1)
	assert.Equal(t, PageInfo{ID: 1, State: PageAllocated, Owner: "A", Writer: 1, WriterTenant: "A",
		Holder: 2, HolderTenant: "B", Reader: 1, ReaderTenant: "A", Text: "tenant-A:" + DemoSecret}, p)
	// Step 18: B's decode reads it.
	p = at(18, 1)
	assert.Equal(t, PageLeaked, p.State)
	assert.Equal(t, 2, p.Reader)
	assert.Equal(t, "B", p.ReaderTenant)
	// Page 0 holds B's own placeholder by then: not leaked.
	p = at(18, 0)
	assert.Equal(t, PageAllocated, p.State)
	assert.Equal(t, "tenant-B:"+PlaceholderContent, p.Text)
	// After the release the leaked pages stay marked for the last response.
	p = at(20, 1)
	assert.Equal(t, PageLeaked, p.State)
	assert.Zero(t, p.Holder)
	assert.Equal(t, PageStale, at(20, 0).State)

	last, ok := e.Snapshot().LastResponse()
	require.True(t, ok)
	assert.Equal(t, 2, last.Request)
	s0, _ := e.SnapshotAt(0)
	_, ok = s0.LastResponse()
	assert.False(t, ok)
	s8, _ := e.SnapshotAt(8) // r1's read: its response is visible from here
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
	for _, id := range []int{-1, 8, 1 << 40} {
		_, err := s.Page(id)
		assert.EqualError(t, err, fmt.Sprintf("page %d: must be between 0 and 7", id))
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
