package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPresetsAreWellFormed(t *testing.T) {
	seen := map[string]bool{}
	ps := Presets()
	require.NotEmpty(t, ps)
	for _, p := range ps {
		assert.NotEmpty(t, p.Slug)
		assert.Equal(t, strings.ToLower(p.Slug), p.Slug)
		assert.NotContains(t, p.Slug, " ")
		assert.False(t, seen[p.Slug], "slug %q is unique", p.Slug)
		seen[p.Slug] = true
		assert.NotEmpty(t, p.Name, p.Slug)
		assert.NotEmpty(t, p.Description, p.Slug)
		assert.NoError(t, p.Config.Validate(), p.Slug)
		assert.NotEmpty(t, p.Ops, p.Slug)
		for _, op := range p.Ops {
			assert.True(t, (op.Send == nil) != (op.Settle == nil), "%s: an op is a send or a settle", p.Slug)
		}
		got, ok := PresetBySlug(p.Slug)
		assert.True(t, ok)
		assert.Equal(t, p, got)
	}
	for _, slug := range []string{"demo", "demo-fixed", "glm-launch", "glm-remediated", "scrub", "abort-one-half", "abort-both"} {
		assert.True(t, seen[slug], "preset %q exists", slug)
	}
	_, ok := PresetBySlug("nope")
	assert.False(t, ok)
	_, ok = PresetBySlug("")
	assert.False(t, ok)
}

// Presets returns fresh values: editing one cannot change the next call.
func TestPresetsAreFresh(t *testing.T) {
	a := Presets()
	a[0].Ops[0].Send.PromptTokens = 999
	a[0].Config.PoolTokens = 1
	b := Presets()
	assert.Equal(t, DemoPromptA, b[0].Ops[0].Send.PromptTokens)
	assert.Equal(t, 128, b[0].Config.PoolTokens)
	// demo and demo-fixed share no op.
	d, _ := PresetBySlug("demo")
	f, _ := PresetBySlug("demo-fixed")
	d.Ops[1].Send.Tenant = "X"
	assert.Equal(t, "B", f.Ops[1].Send.Tenant)
	again, _ := PresetBySlug("demo")
	assert.Equal(t, "B", again.Ops[1].Send.Tenant, "the table behind PresetBySlug is not edited through its copies")
}

// PresetNames lists the presets as Presets does, in its order.
func TestPresetNamesFollowPresets(t *testing.T) {
	slugs, names := PresetNames()
	ps := Presets()
	require.Len(t, slugs, len(ps))
	for i, p := range ps {
		assert.Equal(t, p.Slug, slugs[i])
		assert.Equal(t, p.Name, names[i])
	}
}

func TestPresetsReplay(t *testing.T) {
	for _, p := range Presets() {
		t.Run(p.Slug, func(t *testing.T) {
			e, err := Replay(p.Config, p.Ops)
			require.NoError(t, err)
			sends := 0
			for _, op := range p.Ops {
				if op.Send != nil {
					sends++
				}
			}
			assert.Len(t, e.Responses(), sends)
			assertReleasedOnce(t, e)
		})
	}
}

func TestPresetDemo(t *testing.T) {
	e := replayPreset(t, "demo")
	r1, r2 := e.Responses()[0], e.Responses()[1]
	assert.Equal(t, 200, r1.Status)
	assert.False(t, r1.Leaked())

	assert.Equal(t, 200, r2.Status)
	assert.Equal(t, StateFinished, r2.State)
	assert.Equal(t, PathPlaceholder, r2.Path)
	assert.True(t, r2.WrongStatus)
	assert.Equal(t, pg(1, 7), r2.LeakedPages)
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7, Tokens: 119}}, r2.Leaks)
	require.Len(t, r2.Body, 2)
	assert.Equal(t, Segment{Pages: pg(0, 1), Writer: 2, Tenant: "B", Text: "tenant-B:" + PlaceholderContent}, r2.Body[0])
	assert.Equal(t, Segment{Pages: pg(1, 7), Writer: 1, Tenant: "A", Text: "tenant-A:" + DemoSecret, Leaked: true}, r2.Body[1])
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1", r2.Verdict())
	assert.Equal(t, "7 pages of tenant A leaked to tenant B", r2.Announcement())
	// The article's demo output, page by page.
	want := "tenant-B:<placeholder-token>" + strings.Repeat(" | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST", 7)
	assert.Equal(t, want, r2.BodyText(8))

	m := e.Metrics()
	assert.Equal(t, 1, m.LeakedResponses)
	assert.Equal(t, 7, m.LeakedPages)
	assert.Equal(t, 1, m.WrongStatus)
	assert.Equal(t, 8, m.Decode.Stale)
}

func TestPresetDemoFixed(t *testing.T) {
	e := replayPreset(t, "demo-fixed")
	r2 := e.Responses()[1]
	assert.Equal(t, 400, r2.Status)
	assert.Equal(t, StateRejected, r2.State)
	assert.Equal(t, "Input length (125 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate.", r2.Reason, "prefill's: decode admitted the prompt")
	assert.Zero(t, r2.Allocated)
	assert.False(t, r2.Leaked())
	assert.Equal(t, "Rejected with 400 before any page was allocated", r2.Verdict())
	assert.Equal(t, "Request 2 from tenant B: HTTP 400. Rejected with 400 before any page was allocated", r2.Announcement())
	// The retired request creates no sender, receiver or reservation: its
	// whole log is intake, the door and the 400.
	events := eventsOf(e.Log().Copy(), 2)
	require.Equal(t, []step{{StageIntake, HalfPrefill, nil}, {StageIntake, HalfDecode, nil}, {StageAdmission, HalfBoth, nil}, {StageResponse, HalfAPI, nil}}, steps(events))
	for _, ev := range events {
		assert.Empty(t, ev.muts)
	}
	m := e.Metrics()
	assert.Zero(t, m.LeakedPages)
	assert.Zero(t, m.WrongStatus)
	assert.Equal(t, 1, m.Rejected)
}

func TestPresetGLMLaunch(t *testing.T) {
	p, _ := PresetBySlug("glm-launch")
	c := p.Config.Capacity()
	assert.Equal(t, 681_274, c.Prefill.MaxReqInputLen)
	assert.False(t, c.Prefill.Backed)
	assert.Equal(t, 367_296, c.Prefill.ShortBy)
	assert.InDelta(t, 0.65, c.Prefill.Ratio, 0.001)
	assert.Equal(t, 1_048_570, c.Decode.MaxReqInputLen, "decode's pool backs the context")
	assert.True(t, c.Decode.Backed)
	assert.Equal(t, Window{First: 681_274, Last: 1_048_569}, c.Window)

	// The responses are found by tenant, not position: the preset's op order
	// is the UI's business (it may want the leak to be the last response).
	e := replayPreset(t, "glm-launch")
	require.Len(t, e.Responses(), 4)
	a, b, c3, d := byTenant(t, e, "A"), byTenant(t, e, "B"), byTenant(t, e, "C"), byTenant(t, e, "D")
	assert.Equal(t, 200, d.Status, "the warm-up traffic is served normally")
	assert.Equal(t, GLMLaunchPoolTokens-4_096-7, d.ReadPages.Len(), "the longest prompt prefill reads after A's")
	assert.Equal(t, 1, a.Request, "A writes first")
	assert.Equal(t, 200, a.Status)
	assert.Equal(t, 4_096, a.ReadPages.Len())
	assert.Equal(t, 200, b.Status)
	assert.Equal(t, PathPlaceholder, b.Path)
	assert.True(t, b.PrefillRejected)
	assert.False(t, b.DecodeRejected, "decode's pool backs the context: it admits B")
	assert.Equal(t, 900_000, b.Allocated, "decode reserves the whole prompt")
	assert.Equal(t, []int{900_000, 1, 900_000}, []int{b.Reserved, b.Sent, b.Committed})
	// merge_and_sort_free hands B the lowest ids: every page A and D wrote,
	// past B's own placeholder in page 0 (A's first page).
	assert.Equal(t, pg(0, 900_000), b.ReadPages)
	assert.Equal(t, 4_095+677_177, b.LeakedPages.Len())
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 4_095, Tokens: 4_095}, {Tenant: "D", Pages: 677_177, Tokens: 677_177}}, b.Leaks)
	assert.Equal(t, "LEAK: 4,095 pages of tenant A and 677,177 pages of tenant D returned to tenant B with HTTP 200 — decode attended over 900,000 positions; prefill wrote 1", b.Verdict())
	assert.Equal(t, 400, c3.Status)
	assert.Equal(t, PathAPIReject, c3.Path)
	assert.Equal(t, "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", c3.Verdict())
	m := e.Metrics()
	assert.Equal(t, []int{GLMLaunchPoolTokens, GLMDecodePoolTokens}, []int{m.Prefill.Total, m.Decode.Total})
	assert.Equal(t, 1, m.LeakedResponses)
	assert.Equal(t, 4_095+677_177, m.LeakedPages)
}

// At GLM-5.3's scale, the stale positions decode attends over for B are
// exactly what its reserved pages held: the positions A and D wrote among
// them (less the one B's placeholder overwrote) are its ForeignTokens, the
// never-written ones its EmptyTokens — counted from the other requests'
// reads, and page by page from the pool at B's read.
func TestGLMLaunchStalePositions(t *testing.T) {
	e := replayPreset(t, "glm-launch")
	a, b, d := byTenant(t, e, "A"), byTenant(t, e, "B"), byTenant(t, e, "D")
	cfg := e.Config()
	require.Equal(t, 1, cfg.PageTokens, "one position a page")

	// What A and D wrote is what they read (their prompts in full).
	inB := func(p Pages) int {
		n := 0
		p.Each(func(id int) bool {
			if b.ReadPages.Contains(id) {
				n++
			}
			return true
		})
		return n
	}
	ownPage := b.ReadPages.Head(1) // where prefill wrote B's placeholder
	require.True(t, a.ReadPages.Contains(ownPage[0].First), "B's placeholder landed in one of A's pages")
	fromA, fromD := inB(a.ReadPages)-1, inB(d.ReadPages)
	assert.Equal(t, []int{4_095, 677_177}, []int{fromA, fromD})
	assert.Equal(t, fromA+fromD, b.ForeignTokens)
	assert.Equal(t, 1, b.OwnTokens)
	assert.Equal(t, b.Committed-1-fromA-fromD, b.EmptyTokens, "the rest was never written")
	assert.Equal(t, 218_727, b.EmptyTokens)

	// Page by page, from the pool at the read: the writer of each page B
	// attended over, counted by tenant.
	at, err := e.SnapshotAt(b.ReadStep)
	require.NoError(t, err)
	writers := map[string]int{}
	states := map[PageState]int{}
	b.ReadPages.Each(func(id int) bool {
		p, err := at.Page(id)
		require.NoError(t, err)
		require.Nil(t, p.Positions, "page size 1: no page holds two writers")
		writers[p.WriterTenant]++
		states[p.State]++
		return true
	})
	assert.Equal(t, map[string]int{"A": b.Leaks[0].Tokens, "D": b.Leaks[1].Tokens, "B": b.OwnTokens, "": b.EmptyTokens}, writers)
	assert.Equal(t, map[PageState]int{PageLeaked: b.ForeignTokens, PageAllocated: b.OwnTokens + b.EmptyTokens}, states)

	// Prefill's pool never held B's prompt: one page for its placeholder.
	events := e.Log().Copy()
	forward := events[stepOf(t, events, b.Request, StagePrefillForward, ServerPrefill)-1]
	assert.Equal(t, 1, forward.Pages.Len())
}

// Symmetric pools: both servers reject B's 125 tokens. Decode reserves one
// page for its own placeholder, attends over that one position — B's — and
// check_finished answers the pending 400 with decode's message: no other
// tenant's content reaches B, on the vulnerable door.
func TestPresetSymmetric(t *testing.T) {
	p, ok := PresetBySlug("symmetric")
	require.True(t, ok)
	assert.Equal(t, p.Config.PoolTokens, p.Config.DecodePoolTokens)
	assert.Equal(t, Vulnerable, p.Config.Mode)
	assert.False(t, p.Config.Window().Open())
	e := replayPreset(t, "symmetric")
	a, b := e.Responses()[0], e.Responses()[1]
	assert.Equal(t, 200, a.Status)
	assert.True(t, b.PrefillRejected)
	assert.True(t, b.DecodeRejected)
	assert.Equal(t, StateRejected, b.State)
	assert.Equal(t, 400, b.Status)
	assert.Equal(t, "Input length (154 tokens) exceeds the maximum allowed length (154 tokens). Use a shorter input or enable --allow-auto-truncate.", b.Reason)
	assert.False(t, b.WrongStatus)
	assert.Equal(t, 1, b.Allocated)
	assert.Empty(t, b.ReadPages, "check_finished ends it in decode's prebuilt batch, before any forward pass")
	assert.Zero(t, b.ReadStep)
	assert.Equal(t, []int{1, 1, 0, 0, 0, 0}, counts(b))
	assert.False(t, b.Leaked())
	assert.Empty(t, b.Leaks)
	assert.Empty(t, b.Body)
	assert.Equal(t, "Rejected with 400 by decode: its own intake had rejected the prompt too, so it reserved 1 page for its placeholder and its prebuilt batch finished the request before any decode forward pass; no KV was attended", b.Verdict())
	assert.Equal(t, []string{"tenant-B's response : HTTP 400: " + b.Reason}, b.Transcript(), "SGLang's 400, not the patched door's")
	m := e.Metrics()
	assert.Zero(t, m.LeakedResponses)
	assert.Zero(t, m.LeakedPages)
	assert.Zero(t, m.WrongStatus)
	assert.Equal(t, 1, m.Rejected)
	// B's page (index 8, past A's staged pages) took the whole page
	// prefill wrote its placeholder into: B's token, then nothing ever
	// written; decode did not attend over it.
	page, err := e.Snapshot().Page(8)
	require.NoError(t, err)
	assert.Equal(t, []PositionRun{{First: 0, Last: 0, Writer: 2, Tenant: "B"}, {First: 1, Last: 15}}, page.Positions)
	assert.Equal(t, PageStale, page.State)
}

func TestPresetGLMRemediated(t *testing.T) {
	p, _ := PresetBySlug("glm-remediated")
	c := p.Config.Capacity()
	assert.True(t, c.Prefill.Backed)
	assert.Zero(t, c.Prefill.ShortBy)
	assert.InDelta(t, 1.95, c.Prefill.Ratio, 0.01)
	assert.Equal(t, 1_048_570, c.Prefill.MaxReqInputLen)
	assert.Equal(t, 1_048_570, c.Decode.MaxReqInputLen)
	assert.False(t, c.Window.Open(), "prefill admits every prompt decode admits")

	e := replayPreset(t, "glm-remediated")
	a, b, c3 := byTenant(t, e, "A"), byTenant(t, e, "B"), byTenant(t, e, "C")
	assert.Equal(t, []int{200, 200, 400}, []int{a.Status, b.Status, c3.Status})
	assert.Equal(t, PathNormal, b.Path, "900,000 tokens now fit the pool")
	assert.Equal(t, 900_000, b.Allocated)
	assert.Equal(t, PathAPIReject, c3.Path, "the context limit still applies")
	m := e.Metrics()
	assert.Zero(t, m.LeakedPages)
	assert.Zero(t, m.LeakedResponses)
	assert.Zero(t, m.WrongStatus)
}

func TestPresetScrub(t *testing.T) {
	e := replayPreset(t, "scrub")
	r2 := e.Responses()[1]
	assert.Equal(t, 200, r2.Status)
	assert.True(t, r2.WrongStatus)
	assert.False(t, r2.Leaked())
	assert.Equal(t, 7, r2.ZeroedPages)
	assert.Equal(t, pg(0, 8), r2.ReadPages, "it read A's scrubbed slot, not some other pages")
	assert.Equal(t, "WRONG 200: tenant B's rejected request was answered with 7 zeroed pages — no foreign content, but a failure reported as success", r2.Verdict())
	require.Len(t, r2.Body, 2)
	assert.Equal(t, "<zeroed>", r2.Body[1].Text)
	assert.Zero(t, r2.Body[1].Writer)
	assert.Empty(t, r2.Body[1].Tenant)
	m := e.Metrics()
	assert.Equal(t, 25, m.ScrubWrites, "both servers scrub: A's 8 pages on each, B's 1 on prefill and 8 on decode")
	assert.Equal(t, int64(25*16*70_272), m.ScrubBytes, "25 pages of 16 tokens")
	assert.Zero(t, m.Prefill.Stale)
	assert.Zero(t, m.Decode.Stale)
	assert.Equal(t, 1, m.WrongStatus)
	assert.Zero(t, m.LeakedPages)
}

func TestPresetAbortOneHalf(t *testing.T) {
	e := replayPreset(t, "abort-one-half")
	r1 := e.Responses()[0]
	assert.Equal(t, StateCancelled, r1.State)
	assert.Equal(t, 499, r1.Status)
	assert.Equal(t, StagePrefillTransfer, r1.CancelledAt)
	assert.True(t, r1.Lingering)
	m := e.Metrics()
	assert.Equal(t, 8, m.PagesLingering)
	assert.Equal(t, 8, m.Decode.Allocated)
	assert.Equal(t, []int{1}, e.Lingering())
	assert.Equal(t, 200, e.Responses()[1].Status)
	assert.Equal(t, pg(8, 8), e.Responses()[1].ReadPages, "B cannot get the lingering pages")

	require.NoError(t, e.Settle(1, OutcomeDrained))
	assert.False(t, e.Responses()[0].Lingering)
	assert.Equal(t, StateCancelled, e.Responses()[0].State, "settling does not change how it ended")
	m = e.Metrics()
	assert.Zero(t, m.PagesLingering)
	assert.Zero(t, m.Decode.Allocated)
	assert.Equal(t, 1, m.DeferredRelease[OutcomeDrained])
}

func TestPresetAbortBoth(t *testing.T) {
	e := replayPreset(t, "abort-both")
	m := e.Metrics()
	assert.Zero(t, m.PagesLingering)
	assert.Zero(t, m.Decode.Allocated)
	assert.Empty(t, e.Lingering())
	assert.Equal(t, pg(8, 8), e.Responses()[1].ReadPages, "A's released pages wait in release_pages; B gets the never-used ones")
	// Nothing was transferred for A: its freed pages wait in release_pages
	// holding nothing, next to B's.
	assert.Equal(t, 16, m.Decode.Staged)
	assert.Equal(t, 8, m.Decode.Stale, "only B's pages hold KV")
	p, err := e.Snapshot().Page(0)
	require.NoError(t, err)
	assert.Equal(t, PageFree, p.State)
	assert.Error(t, e.Settle(1, OutcomeDrained))
}

// byTenant is the one response of tenant.
func byTenant(t *testing.T, e *Engine, tenant string) Response {
	t.Helper()
	var out []Response
	for _, r := range e.Responses() {
		if r.Tenant == tenant {
			out = append(out, r)
		}
	}
	require.Len(t, out, 1, "responses of tenant %s", tenant)
	return out[0]
}

// The second bug class: the same run, with the deferred release ending in
// timeout or drained.
func TestPresetLateWrite(t *testing.T) {
	e := replayPreset(t, "late-write")
	c := e.Responses()[2]
	assert.Equal(t, PathNormal, c.Path, "C's request fit: no intake rejection involved")
	assert.Equal(t, 200, c.Status)
	assert.Equal(t, []int{1}, c.LateWriteFrom)
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 8, Tokens: 8}}, c.Leaks)
	require.Len(t, c.Body, 1)
	assert.Equal(t, Segment{Pages: pg(0, 8), Writer: 1, Tenant: "A", Text: "tenant-A:" + DemoSecret, Leaked: true}, c.Body[0])
	assert.Equal(t, 1, e.Metrics().DeferredRelease[OutcomeTimeout])
	assert.Equal(t, 1, e.Metrics().LateWrites)
	var victims []int
	for _, ev := range e.Log().Copy() {
		if ev.Victim != 0 {
			victims = append(victims, ev.Victim)
			assert.Equal(t, 1, ev.Request, "the late write is A's")
			assert.Equal(t, StagePrefillTransfer, ev.Stage)
		}
	}
	assert.Equal(t, []int{3}, victims)

	d := replayPreset(t, "late-write-drained")
	c = d.Responses()[2]
	assert.Equal(t, 200, c.Status)
	assert.False(t, c.Leaked(), "a drained release leaves nothing in flight")
	assert.Empty(t, c.LateWriteFrom)
	assert.Equal(t, pg(0, 8), c.ReadPages, "C gets the same pages, holding its own KV")
	assert.Zero(t, d.Metrics().LateWrites)
}
