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
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7}}, r2.Leaks)
	require.Len(t, r2.Body, 2)
	assert.Equal(t, Segment{Pages: pg(0, 1), Writer: 2, Tenant: "B", Text: "tenant-B:" + PlaceholderContent}, r2.Body[0])
	assert.Equal(t, Segment{Pages: pg(1, 7), Writer: 1, Tenant: "A", Text: "tenant-A:" + DemoSecret, Leaked: true}, r2.Body[1])
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", r2.Verdict())
	assert.Equal(t, "7 pages of tenant A leaked to tenant B", r2.Announcement())
	// The article's demo output, page by page.
	want := "tenant-B:<placeholder-token>" + strings.Repeat(" | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST", 7)
	assert.Equal(t, want, r2.BodyText(8))

	m := e.Metrics()
	assert.Equal(t, 1, m.LeakedResponses)
	assert.Equal(t, 7, m.LeakedPages)
	assert.Equal(t, 1, m.WrongStatus)
	assert.Equal(t, 8, m.PagesStale)
}

func TestPresetDemoFixed(t *testing.T) {
	e := replayPreset(t, "demo-fixed")
	r2 := e.Responses()[1]
	assert.Equal(t, 400, r2.Status)
	assert.Equal(t, StateRejected, r2.State)
	assert.Equal(t, "Input length (200 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate.", r2.Reason)
	assert.Zero(t, r2.Allocated)
	assert.False(t, r2.Leaked())
	assert.Equal(t, "Rejected with 400 before any page was allocated", r2.Verdict())
	assert.Equal(t, "Request 2 from tenant B: HTTP 400. Rejected with 400 before any page was allocated", r2.Announcement())
	// The retired request creates no sender, receiver or reservation: its
	// whole log is intake, the door and the 400.
	events := eventsOf(e.Log().Copy(), 2)
	require.Equal(t, []step{{StageIntake, HalfBoth, nil}, {StageAdmission, HalfBoth, nil}, {StageResponse, HalfAPI, nil}}, steps(events))
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
	assert.Equal(t, 681_274, c.MaxReqInputLen)
	assert.False(t, c.Backed)
	assert.Equal(t, 367_296, c.ShortBy)
	assert.InDelta(t, 0.65, c.Ratio, 0.001)

	// The responses are found by tenant, not position: the preset's op order
	// is the UI's business (it may want the leak to be the last response).
	e := replayPreset(t, "glm-launch")
	require.Len(t, e.Responses(), 4)
	a, b, c3, d := byTenant(t, e, "A"), byTenant(t, e, "B"), byTenant(t, e, "C"), byTenant(t, e, "D")
	assert.Equal(t, 200, d.Status, "the warm-up traffic is served normally")
	assert.Equal(t, GLMLaunchPoolTokens-4_096-7, d.ReadPages.Len(), "it leaves 7 never-written pages in free_pages")
	assert.Equal(t, 1, a.Request, "A writes first")
	assert.Equal(t, 200, a.Status)
	assert.Equal(t, 4_096, a.ReadPages.Len())
	assert.Equal(t, 200, b.Status)
	assert.Equal(t, PathPlaceholder, b.Path)
	assert.Equal(t, 7, b.LeakedPages.Len())
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 7}}, b.Leaks)
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", b.Verdict())
	assert.Equal(t, 400, c3.Status)
	assert.Equal(t, PathAPIReject, c3.Path)
	assert.Equal(t, "Rejected with 400 by the API: 1,100,000-token prompt is longer than the advertised context", c3.Verdict())
	assert.Equal(t, GLMLaunchPoolTokens, e.Metrics().PagesTotal)
}

func TestPresetGLMRemediated(t *testing.T) {
	p, _ := PresetBySlug("glm-remediated")
	c := p.Config.Capacity()
	assert.True(t, c.Backed)
	assert.Zero(t, c.ShortBy)
	assert.InDelta(t, 1.95, c.Ratio, 0.01)
	assert.Equal(t, 1_048_570, c.MaxReqInputLen)

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
	assert.Equal(t, 16, m.ScrubWrites)
	assert.Equal(t, int64(16*16*70_272), m.ScrubBytes, "16 pages of 16 tokens")
	assert.Zero(t, m.PagesStale)
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
	assert.Equal(t, 8, m.PagesAllocated)
	assert.Equal(t, []int{1}, e.Lingering())
	assert.Equal(t, 200, e.Responses()[1].Status)
	assert.Equal(t, pg(8, 8), e.Responses()[1].ReadPages, "B cannot get the lingering pages")

	require.NoError(t, e.Settle(1, OutcomeDrained))
	assert.False(t, e.Responses()[0].Lingering)
	assert.Equal(t, StateCancelled, e.Responses()[0].State, "settling does not change how it ended")
	m = e.Metrics()
	assert.Zero(t, m.PagesLingering)
	assert.Zero(t, m.PagesAllocated)
	assert.Equal(t, 1, m.DeferredRelease[OutcomeDrained])
}

func TestPresetAbortBoth(t *testing.T) {
	e := replayPreset(t, "abort-both")
	m := e.Metrics()
	assert.Zero(t, m.PagesLingering)
	assert.Zero(t, m.PagesAllocated)
	assert.Empty(t, e.Lingering())
	assert.Equal(t, pg(8, 8), e.Responses()[1].ReadPages, "A's released pages wait in release_pages; B gets the never-used ones")
	// Nothing was transferred for A: its freed pages wait in release_pages
	// holding nothing, next to B's.
	assert.Equal(t, 16, m.PagesStaged)
	assert.Equal(t, 8, m.PagesStale, "only B's pages hold KV")
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
	assert.Equal(t, []Leak{{Tenant: "A", Pages: 8}}, c.Leaks)
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
