package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
	"kvleak/web/model"
)

// The UI of issue 11 (the engine brought in line with SGLang): the
// allocator, the four modes, version 1 links, the article's transcript,
// the late write and the KVPoll badges.

// replayed is the engine's run of cfg and ops: the truth the page shows.
func replayed(t *testing.T, cfg engine.Config, ops []engine.Op) *engine.Engine {
	t.Helper()
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	return e
}

// lastStep is "Step N of N" for the engine's run of cfg and ops.
func lastStep(t *testing.T, cfg engine.Config, ops []engine.Op) string {
	t.Helper()
	n := replayed(t, cfg, ops).Log().Len()
	return fmt.Sprintf("Step %d of %d", n, n)
}

// poolAt is decode's pool after the run of cfg and ops, in pool notation,
// as the model draws it for the page.
func poolAt(t *testing.T, cfg engine.Config, ops []engine.Op) string {
	t.Helper()
	s := model.NewSession()
	require.NoError(t, s.ApplyLink(model.Link{LinkState: permalink.LinkState{Config: cfg, Ops: ops}}))
	return shownNow(t, s).Pool
}

// eventStep is the log step of request id's event at stage (the first such).
func eventStep(t *testing.T, e *engine.Engine, id int, stage engine.Stage) int {
	t.Helper()
	for i := range e.Log().Len() {
		if ev := e.Log().At(i); ev.Request == id && ev.Stage == stage {
			return ev.Step
		}
	}
	t.Fatalf("r%d has no %s event", id, stage)
	return 0
}

// optionValues lists a select's option values in order.
func optionValues(b *browser, sel string) []string {
	b.t.Helper()
	return evalJS[[]string](b, `[...document.querySelectorAll(`+jsLit(sel+" option")+`)].map(o => o.value)`)
}

// TestAllocatorSetting switches #allocator through its three policies on
// runs where the policy decides which pages a request gets: each choice
// joins the link as alloc=… and changes whose pages the run reuses. A
// policy the playground does not know is refused natively (web/model's
// hostile links).
func TestAllocatorSetting(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	p := mustPreset(t, "abort-both")
	b.Open(site + "?" + linkQuery(p.Slug, p.Config, p.Ops))
	waitShows(b, "abort-both", expectAt(t, p.Slug, 0))
	require.Equal(t, []string{"sorted", "lifo", "fifo"}, optionValues(b, "#allocator"))
	assert.Equal(t, "sorted", valueOf(b, "#allocator"), "SGLang's PD policy is the default")
	assert.Contains(t, textOf(b, "#pool-note"), "Allocator sorted.")

	// abort-both: A's cancelled pages 1–8 (SGLang's ids) are freed unwritten
	// before B asks for 8. sorted stages them in release_pages and fifo
	// appends them, so B gets 9–16; lifo hands them straight back.
	for _, c := range []struct {
		alloc engine.Allocator
		pool  string // decode's 20 pages
	}{
		{engine.LIFO, "B~×8 .×12"},
		{engine.FIFO, ".×8 B~×8 .×4"},
		{engine.Sorted, ".×8 B~×8 .×4"},
	} {
		setField(b, "#allocator", string(c.alloc))
		cfg := p.Config
		cfg.Allocator = c.alloc
		pool := poolAt(t, cfg, p.Ops)
		require.Equal(t, c.pool, pool, "%s: the engine's pool", c.alloc)
		want := "?" + linkQuery("", cfg, p.Ops) // a changed setting is no longer the preset
		s := waitView(b, "alloc="+string(c.alloc)+" in the address bar", func(s pageView) bool {
			return s.Search == want && poolNotation(s.Cells) == pool
		})
		assert.Equal(t, "200", s.Status, string(c.alloc))
		assert.Equal(t, "OK: HTTP 200 with tenant B's own 8 pages", s.Verdict, string(c.alloc))
		assert.Contains(t, textOf(b, "#pool-note"), "Allocator "+string(c.alloc)+".")
	}

	// late-write: under fifo, C gets the pool's last four free pages
	// (17–20) and the first four of B's freed ones (9–12), and A's late
	// transfer lands in 1–8, which nobody holds; lifo, like sorted, hands
	// C pages 1–8 and the late write lands in C's KV.
	lw := mustPreset(t, "late-write")
	choosePreset(b, lw.Slug)
	for _, c := range []struct {
		alloc                   engine.Allocator
		verdict, announce, pool string
	}{
		{engine.FIFO, "OK: HTTP 200 with tenant C's own 8 pages",
			"Request 3 from tenant C: HTTP 200. OK: HTTP 200 with tenant C's own 8 pages", "A~×8 C~×4 B~×4 C~×4"},
		{engine.LIFO, lateWriteVerdict(t), "8 pages of tenant A leaked to tenant C", "A!×8 B~×8 .×4"},
	} {
		cfg := lw.Config
		cfg.Allocator = c.alloc
		setField(b, "#allocator", string(c.alloc))
		pool := poolAt(t, cfg, lw.Ops)
		require.Equal(t, canonicalPool(t, c.pool), pool, "%s: the engine's pool", c.alloc)
		s := waitShows(b, "late-write under "+string(c.alloc), expectation{
			Status: "200", Verdict: c.verdict, StepPos: lastStep(t, cfg, lw.Ops), Pool: pool})
		assert.Equal(t, c.announce, s.Announce, string(c.alloc))
		assert.Equal(t, "?"+linkQuery("", cfg, lw.Ops), s.Search, string(c.alloc))
	}
}

// TestEachModeStopsTheDemoLeak puts the demo behind each half of SGLang
// #38704 alone: retiring the request at admission refuses B before any
// page is reserved; checking the transferred length refuses it after the
// reservation, before decode reads a stale page. The grid is decode's
// pool, as the model draws it for the mode (poolIn).
func TestEachModeStopsTheDemoLeak(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	assertDemoLeak(t, b)
	demo := mustPreset(t, "demo")
	stepsIn := func(m engine.Mode) string {
		cfg := demo.Config
		cfg.Mode = m
		return lastStep(t, cfg, demo.Ops)
	}
	poolIn := func(m engine.Mode) string {
		s := model.NewSession()
		require.NoError(t, s.SetMode(m))
		return shownNow(t, s).Pool
	}
	require.Equal(t, []string{"vulnerable", "fixed", "retire-only", "length-check-only", "upstream"}, optionValues(b, "#mode"))
	r2Stages := func() []string {
		return evalJS[[]string](b, `[...document.querySelectorAll("#log li[data-step][data-stage]")]
			.filter(li => (li.querySelector(".log-req") || {}).textContent?.startsWith("r2 "))
			.map(li => li.dataset.stage)`)
	}

	t.Run("retire-only", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "retire-only")
		last := stepsIn(engine.RetireOnly)
		s := waitView(b, "the 400 at admission", func(s pageView) bool { return s.Status == "400" && s.StepPos == last })
		assert.Equal(t, "Rejected with 400 before any page was allocated", s.Verdict)
		assert.Equal(t, poolIn(engine.RetireOnly), poolNotation(s.Cells))
		assert.NotContains(t, poolNotation(s.Cells), "B", "B reserved nothing")
		assert.Equal(t, []string{"intake", "intake", "admission", "response"}, r2Stages(),
			"r2 passes both servers' intake and never reaches prefill or decode")
		assert.Equal(t, "Error body: "+demoFixReason, textOf(b, ".reason"))
		assert.Empty(t, gridCells(b, ".state-leaked"))
	})
	t.Run("length-check-only", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "length-check-only")
		last := stepsIn(engine.LengthCheckOnly)
		s := waitView(b, "the 400 at decode.transfer", func(s pageView) bool { return s.Status == "400" && s.StepPos == last })
		assert.Equal(t, "Aborted with 400 before decode committed: prefill transferred 1 token for 8 reserved pages; no stale page was read", s.Verdict)
		// B's placeholder wrote page 1; A's 7 pages stay stale, unread.
		assert.Equal(t, poolIn(engine.LengthCheckOnly), poolNotation(s.Cells))
		assert.True(t, strings.HasPrefix(poolNotation(s.Cells), "B~ A~×7"), poolNotation(s.Cells))
		assert.Equal(t, []string{"intake", "intake", "admission", "prefill.bootstrap", "decode.prealloc", "prefill.forward",
			"prefill.transfer", "release", "decode.transfer", "response", "release"}, r2Stages(),
			"r2 is allocated on both servers, then aborted before decode.running")
		assert.Equal(t, "Error body: "+demoFixReason, textOf(b, ".reason"))
		assert.NotContains(t, textOf(b, "#response"), "tenant-A:", "#response carries nothing of tenant A")
	})
	// SGLang as merged (#36988 with #38935) is per server: decode admitted B, so it
	// reserves its pages, no KV comes and decode answers 500, reading nothing.
	t.Run("upstream", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "upstream")
		last := stepsIn(engine.Upstream)
		s := waitView(b, "decode's 500", func(s pageView) bool { return s.Status == "500" && s.StepPos == last })
		assert.True(t, strings.HasPrefix(s.Verdict, "Errored with 500: Decode transfer failed"), s.Verdict)
		assert.Contains(t, textOf(b, "#router-note"), "The status the client sees depends on the router", "whose 500 or 400 B gets")
		assert.Equal(t, []string{"intake", "intake", "admission", "prefill.bootstrap", "decode.prealloc", "decode.transfer", "response", "release"}, r2Stages(),
			"prefill's half is retired at its door; decode preallocates and times out")
		assert.Empty(t, gridCells(b, ".state-leaked"))
		assert.NotContains(t, textOf(b, "#response"), "tenant-A:", "#response carries nothing of tenant A")
	})
	t.Run("back to vulnerable", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "vulnerable")
		waitView(b, "the leak again", func(s pageView) bool { return s.Verdict == demoLeakVerdict })
		assertDemoLeak(t, b)
	})
}

// TestVersion1Link opens the demo's link as schema v=1 wrote it, when the
// engine had one pool: it opens with the allocator it was made with (lifo),
// its slot is dropped, its 8-token pool becomes prefill's and decode's pool
// backs the 16-token context, and a notice says so. Under the two servers'
// limits (prefill's max_req_input_len 2, decode's 10) B's 12 tokens are
// rejected by both: decode reserves 1 page for its own placeholder and
// answers 400, reading no other tenant's KV. It reserved nothing for
// decoding (engine.MigrateV3). The engine is the judge. A version 1 short
// link and a version 1 link naming an allocator are web/model's
// (TestVersion1LinksOpenWithTheirAllocator, the hostile links).
func TestVersion1Link(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?" + legacyDemoQuery)
	demo := mustPreset(t, "demo")
	cfg := engine.Config{ContextTokens: 16, PoolTokens: 8, DecodePoolTokens: 16, PageTokens: 1,
		Mode: engine.Vulnerable, Allocator: engine.LIFO, Cancel: demo.Config.Cancel, KVBytesPerToken: demo.Config.KVBytesPerToken}
	ops := []engine.Op{
		{Send: &engine.Request{Tenant: "A", PromptTokens: 8, Content: demoSecret}},
		{Send: &engine.Request{Tenant: "B", PromptTokens: 12, Content: "summarise my notes"}},
	}
	e := replayed(t, cfg, ops)
	r2, ok := e.Response(2)
	require.True(t, ok, "the engine answers r2")
	require.True(t, r2.PrefillRejected && r2.DecodeRejected, "both servers reject B's 12 tokens")
	require.Equal(t, 400, r2.Status)
	want := modelOf(t, legacyDemoQuery)
	require.Equal(t, cfg, want.Config(), "no reserve, and 16 tokens decode A's 8 as they were")
	shown := shownNow(t, want)
	s := waitShows(b, "the v=1 demo under two pools", expectation{
		Status: "400", Verdict: r2.Verdict(), StepPos: lastStep(t, cfg, ops), Pool: shown.Pool})
	assert.Equal(t, shown.Verdict, s.Verdict)
	assert.False(t, s.HasBanner, "banner %q", s.Banner)
	assert.Equal(t, "lifo", valueOf(b, "#allocator"), "a v=1 link ran with lifo")
	assert.Equal(t, "16", valueOf(b, "#decode-pool"), "decode's pool backs the context")
	assert.Equal(t, "0", valueOf(b, "#reserved-decode"), "it reserved nothing for decoding")
	assert.Empty(t, gridCells(b, ".state-leaked"))
	_, changed := engine.MigrateV3(cfg, ops)
	assert.Equal(t, "This link (version 1) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is 16 tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before. It keeps the lifo allocator it was made with. "+changed+" Outcomes may differ from when it was made.",
		textOf(b, "#notice"))
	assert.Equal(t, want.Notice(), textOf(b, "#notice"))
}

// TestDemoTranscript shows the response as the article's demo printed it:
// the vulnerable engine's three lines, then the fixed engine's one.
func TestDemoTranscript(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	assertDemoLeak(t, b)
	require.Equal(t, 0, countAll(b, "#transcript"), "hidden until asked for")
	assert.Equal(t, "false", evalJS[string](b, `document.querySelector("#transcript-toggle").getAttribute("aria-expanded")`))
	clickSel(b, "#transcript-toggle")
	waitFor(b, "the transcript", jsExists("pre#transcript"))
	assert.Equal(t, "true", evalJS[string](b, `document.querySelector("#transcript-toggle").getAttribute("aria-expanded")`))
	// The article's lines, as printed there.
	assert.Equal(t, []string{
		"tenant-B's response : tenant-B:<placeholder-token> | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST | tenant-A:PROJECT_ZEPHYR_Q4_FORECAST",
		"HTTP status reported to tenant-B: 200 OK",
		"LEAK: tenant-B's response contains tenant-A's data -> True",
	}, transcriptLines(b))

	setField(b, "#mode", "fixed")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	if countAll(b, "pre#transcript") == 0 {
		clickSel(b, "#transcript-toggle")
		waitFor(b, "the transcript", jsExists("pre#transcript"))
	}
	assert.Equal(t, []string{"tenant-B's response : HTTP 400: request rejected (context length exceeds KV pool capacity)"}, transcriptLines(b))

	clickSel(b, "#transcript-toggle")
	waitFor(b, "the transcript hidden", `document.querySelector("#transcript") === null`)
}

func transcriptLines(b *browser) []string {
	b.t.Helper()
	return strings.Split(evalJS[string](b, `document.querySelector("pre#transcript").textContent`), "\n")
}

// TestLateWrite opens the second bug class: C's request fit, yet its 200
// carries tenant A's secret, written late by A's uncancelled prefill half.
// Draining the deferred release instead leaves C its own KV.
func TestLateWrite(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	lw, drained := mustPreset(t, "late-write"), mustPreset(t, "late-write-drained")
	choosePreset(b, "late-write")
	waitFor(b, "C's response", `document.querySelector("#step-pos").textContent.includes(`+jsLit(lastStep(t, lw.Config, lw.Ops))+`)`)
	assert.Equal(t, "200", textOf(b, "#status"))
	assert.Equal(t, lateWriteVerdict(t), textOf(b, "#verdict"))
	assert.Contains(t, textOf(b, "#response"), "tenant-A:"+demoSecret, "#response")
	leaked := gridCells(b, ".state-leaked")
	if assert.Len(t, leaked, 8, "leaked cells: %s", joinCells(leaked)) {
		for _, c := range leaked {
			assert.Equal(t, "A", c.Owner, "leaked cell %s", c)
		}
	}
	// The late write is A's prefill transfer, logged after C's own. The log
	// may draw its rows a frame after the response.
	const transfers = `#log li[data-stage="prefill.transfer"]`
	waitFor(b, "the three prefill transfers logged", `document.querySelectorAll('`+transfers+`').length === 3`)
	late := evalJS[[]string](b, `[...document.querySelectorAll('`+transfers+`')]
		.map(li => li.querySelector(".log-req").textContent.trim().split(" ")[0])`)
	assert.Equal(t, []string{"r2", "r3", "r1"}, late, "the requests of the prefill.transfer rows, in log order")

	choosePreset(b, "late-write-drained")
	waitFor(b, "C's response", `document.querySelector("#step-pos").textContent.includes(`+jsLit(lastStep(t, drained.Config, drained.Ops))+`)`)
	assert.Equal(t, "OK: HTTP 200 with tenant C's own 8 pages", textOf(b, "#verdict"))
	assert.NotContains(t, textOf(b, "#response"), "tenant-A:", "#response")
	assert.Empty(t, gridCells(b, ".state-leaked"))
}

// TestKVPollBadges checks the demo's log: each transfer stage carries the
// KVPoll state SGLang polls there, and no other row has one. The steps are
// the engine's (each request logs both servers' intake, and prefill's
// release between the transfer and decode's poll).
func TestKVPollBadges(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	assertDemoLeak(t, b)
	type badge struct {
		Step  int    `json:"step"`
		Stage string `json:"stage"`
		Poll  string `json:"poll"`
		Text  string `json:"text"`
	}
	got := evalJS[[]badge](b, `[...document.querySelectorAll("#log li[data-step][data-stage]")]
		.filter(li => li.querySelector("span.log-poll"))
		.map(li => { const p = li.querySelector("span.log-poll");
			return {step: +li.dataset.step, stage: li.dataset.stage, poll: p.dataset.poll, text: p.textContent}; })`)
	demo := mustPreset(t, "demo")
	e := replayed(t, demo.Config, demo.Ops)
	var want []badge
	for id := 1; id <= 2; id++ { // A's request, then B's
		for _, w := range []struct {
			stage engine.Stage
			poll  string
		}{
			{"prefill.bootstrap", "Bootstrapping"},
			{"decode.prealloc", "WaitingForInput"},
			{"prefill.transfer", "Success"},
			{"decode.transfer", "Success"},
		} {
			want = append(want, badge{eventStep(t, e, id, w.stage), string(w.stage), w.poll, "KVPoll." + w.poll})
		}
	}
	assert.Equal(t, want, got)
}
