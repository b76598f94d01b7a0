package e2e

// Helpers of the share, embed, compare/step, export and accessibility
// tests: permalinks built from the engine's presets, expectations looked
// up in presets_expected_test.go, and a snapshot of what the page shows.

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"

	"kvleak/engine"
	"kvleak/internal/headless"
)

// linkQuery writes a permalink query (without "?") in the schema that
// permalink/doc.go documents (v=4). It re-implements the encoder on
// purpose, as an independent oracle: a change to the schema fails here.
func linkQuery(slug string, c engine.Config, ops []engine.Op, extra ...string) string {
	scrub := "0"
	if c.ScrubOnFree {
		scrub = "1"
	}
	parts := []string{"v=4"}
	if slug != "" {
		parts = append(parts, "preset="+url.QueryEscape(slug))
	}
	parts = append(parts,
		"ctx="+strconv.Itoa(c.ContextTokens), "pool="+strconv.Itoa(c.PoolTokens),
		"dpool="+strconv.Itoa(c.DecodePoolTokens), "page="+strconv.Itoa(c.PageTokens),
		"reserve="+strconv.Itoa(c.ReservedDecodeTokens), "mode="+string(c.Mode), "alloc="+string(c.Allocator), "cancel="+string(c.Cancel), "scrub="+scrub)
	// The experiments' keys are written only away from their defaults.
	if c.Door != "" {
		parts = append(parts, "door="+url.QueryEscape(c.Door))
	}
	if c.CheckWriter {
		parts = append(parts, "wcheck=1")
	}
	if c.Gateway != "" && c.Gateway != "off" {
		parts = append(parts, "gw="+string(c.Gateway))
	}
	for _, op := range ops {
		parts = append(parts, "op="+linkOp(op))
	}
	return strings.Join(append(parts, extra...), "&")
}

func linkOp(op engine.Op) string {
	esc := url.QueryEscape
	if s := op.Settle; s != nil {
		return "x," + strconv.Itoa(s.Request) + "," + esc(string(s.Outcome))
	}
	r := op.Send
	end := "-"
	switch {
	case r.FailTransfer:
		end = "fail"
	case r.CancelAt != "":
		end = string(r.CancelAt)
	}
	fields := []string{"s", esc(r.Tenant), strconv.Itoa(r.PromptTokens), esc(end), esc(r.Content)}
	if r.MaxNewTokens > 0 { // the client's max_new_tokens, from link version 4
		fields = append(fields, strconv.Itoa(r.MaxNewTokens))
	}
	return strings.Join(fields, ",")
}

// preset returns a preset by slug, failing the test if it is gone.
func mustPreset(t *testing.T, slug string) engine.Preset {
	t.Helper()
	p, ok := engine.PresetBySlug(slug)
	if !ok {
		t.Fatalf("engine has no preset %q", slug)
	}
	return p
}

// demoQuery is the article's demo as a permalink query, spelled out (and
// checked against the engine's preset in a test): schema v=4, two pools
// and decode's reserve.
const demoQuery = "v=4&preset=demo&ctx=256&pool=128&dpool=160&page=16&reserve=32&mode=vulnerable&alloc=sorted&cancel=both&scrub=0" +
	"&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,125,-,summarise+my+notes"

// v3DemoQuery is the demo's link as schema v=3 wrote it, before decode's
// prealloc budget and the max_new_tokens clamp: it must keep opening,
// still leak, and say what changed (issue 48).
const v3DemoQuery = "v=3&preset=demo&ctx=256&pool=128&dpool=144&page=16&mode=vulnerable&alloc=sorted&cancel=both&scrub=0" +
	"&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,125,-,summarise+my+notes"

// legacyDemoQuery is the demo's link as schema v=1 wrote it, before the
// allocator setting and SGLang's limit: such links must keep opening.
const legacyDemoQuery = "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0" +
	"&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes"

// expectation is what the response panel, the stepper and the grid show
// for a preset's run at a step (0: the latest), from presets_expected_test.go.
type expectation struct {
	Status, Verdict, StepPos, Announce, Pool string
	Events                                   int
}

func expectAt(t *testing.T, slug string, step int) expectation {
	t.Helper()
	p := presetWantOf(t, slug)
	x := expectation{Events: p.Events}
	if step == 0 {
		step, x.Announce = p.Events, p.Announce
	}
	x.StepPos = fmt.Sprintf("Step %d of %d", step, p.Events)
	for _, sp := range p.Steps {
		if sp.From <= step && step <= sp.To {
			x.Status, x.Verdict, x.Pool = sp.Status, sp.Verdict, sp.Pool
			return x
		}
	}
	t.Fatalf("%s has no step %d", slug, step)
	return x
}

// pageView is what the page shows, read in one go.
type pageView struct {
	Ready      bool     `json:"ready"`
	Search     string   `json:"search"`
	Path       string   `json:"path"`
	Status     string   `json:"status"`
	Verdict    string   `json:"verdict"`
	Announce   string   `json:"announce"`
	StepPos    string   `json:"stepPos"`
	Banner     string   `json:"banner"`
	HasBanner  bool     `json:"hasBanner"`
	Difference string   `json:"difference"`
	HasCompare bool     `json:"hasCompare"`
	ShareMsg   string   `json:"shareMsg"`
	ShareURL   string   `json:"shareURL"`
	HasIntro   bool     `json:"hasIntro"`
	HasSend    bool     `json:"hasSend"`
	HasMode    bool     `json:"hasMode"`
	Mode       string   `json:"mode"`
	Playing    string   `json:"playing"` // #play's aria-pressed
	Cells      []string `json:"cells"`   // #grid in pool notation
}

const pageViewJS = `(() => {
	const el = id => document.getElementById(id);
	const text = id => el(id) ? el(id).textContent.trim() : "";
	return {
		ready: !!document.querySelector('#playground[data-ready="true"]'),
		search: location.search, path: location.pathname,
		status: text("status"), verdict: text("verdict"), announce: text("announce"),
		stepPos: text("step-pos"),
		banner: text("banner"), hasBanner: !!el("banner"),
		difference: text("difference"), hasCompare: !!el("compare"),
		shareMsg: text("share-msg"), shareURL: el("share-url") ? el("share-url").value : "",
		hasIntro: !!document.querySelector(".intro"), hasSend: !!el("send"),
		hasMode: !!el("mode"), mode: el("mode") ? el("mode").value : "",
		playing: el("play") ? el("play").getAttribute("aria-pressed") || "" : "",
		cells: ` + cellTokensJS + `,
	};
})()`

// readView reads what the page shows, and then the address bar once the app
// has written it: the app writes it after the frame that shows a change is
// painted (web/dom/addressbar.go), in a timeout set from that frame's callback.
// A change seen in the page requested that frame before this asks for one,
// so the timeout set here runs after the app's.
func readView(b *browser) pageView {
	return run(b, chromedp.Evaluate[pageView](`(async () => {
		const v = `+pageViewJS+`;
		v.search = await `+afterAddressBar(`location.search`)+`;
		return v;
	})()`, chromedp.EvalAwaitPromise))
}

// readViewNow reads what the page shows without waiting for the address
// bar: for a page whose clock is paused (virtual_time_test.go), where no
// frame runs, so the app's own write waits as well.
func readViewNow(b *browser) pageView { return run(b, chromedp.Evaluate[pageView](pageViewJS)) }

// afterAddressBar evaluates expr once the app's pending address bar write,
// if any, is done (see readView). A hidden tab (another tab opened in front
// of it) paints no frame: the app writes at once there, and so this reads.
func afterAddressBar(expr string) string {
	return `new Promise(r => { const done = () => r(` + expr + `);
		if (document.hidden) return done();
		requestAnimationFrame(() => setTimeout(done, 0)); })`
}

// addressQuery is location.search once the app has written it.
func addressQuery(b *browser) string {
	b.t.Helper()
	return run(b, chromedp.Evaluate[string](afterAddressBar(`location.search`), chromedp.EvalAwaitPromise))
}

// waitView reads what the page shows until ok accepts it, and fails with
// the last state seen if it never does within actionTimeout.
func waitView(b *browser, what string, ok func(pageView) bool) pageView {
	b.t.Helper()
	var s pageView
	waitUntil(b.t, what, actionTimeout, func() (bool, string) {
		s = readView(b)
		return ok(s), fmt.Sprintf("the page shows %+v, pool %q", s, poolNotation(s.Cells))
	})
	return s
}

// waitShows waits until the page is ready and shows x, the grid included.
func waitShows(b *browser, what string, x expectation) pageView {
	b.t.Helper()
	return waitView(b, what, func(s pageView) bool {
		return s.Ready && s.Status == x.Status && s.Verdict == x.Verdict && s.StepPos == x.StepPos &&
			poolNotation(s.Cells) == x.Pool
	})
}

// heightTimeout bounds the wait for an embedding page to resize its
// iframe: once the app runs, one message does it.
const heightTimeout = 10 * time.Second

// newTab opens another tab in b's browser, as a reader opening a link in a
// new tab would. Its problems are recorded with b's.
func (b *browser) newTab() *browser {
	b.t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithListener(b.record))
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("new tab: %v", err)
	}
	return &browser{t: b.t, ctx: ctx}
}

// attachFrame attaches to the out-of-process iframe whose URL starts with
// prefix (a cross-site iframe is a target of its own), waiting for it to
// appear. Its console errors and exceptions are recorded with b's; the
// DevTools protocol replays the ones logged before the attach.
func (b *browser) attachFrame(prefix string) *browser {
	b.t.Helper()
	var id target.ID
	waitUntil(b.t, "an iframe target at "+prefix, actionTimeout, func() (bool, string) {
		infos, err := chromedp.Targets(b.ctx)
		if err != nil {
			return false, fmt.Sprintf("listing targets: %v", err)
		}
		var seen []string
		for _, info := range infos {
			if own := b.contextID(); own != "" && info.BrowserContextID != own { // another test's tab
				continue
			}
			seen = append(seen, string(info.Type)+" "+info.URL)
			if info.Type == "iframe" && strings.HasPrefix(info.URL, prefix) {
				id = info.TargetID
			}
		}
		return id != "", fmt.Sprintf("the tab's targets: %q", seen)
	})
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel(), chromedp.WithListener(b.record))
	b.t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		b.t.Fatalf("attaching to the iframe: %v", err)
	}
	return &browser{t: b.t, ctx: ctx}
}

// blurAll moves focus to the body, so that key presses reach the page's
// shortcuts rather than a control.
func blurAll(b *browser) {
	b.Do(chromedp.Evaluate[chromedp.Void](`document.activeElement && document.activeElement.blur()`))
}

// newBrowserWithProfile is newBrowser with a profile folder that prepare
// fills before Chromium starts (e.g. with preferences), and extra flags, in
// a full Chromium of the test's own: the headless shell does not read a
// reader's preferences.
func newBrowserWithProfile(t *testing.T, prepare func(dir string), extra ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	exe := chromium(t)
	profile := t.TempDir()
	prepare(profile)
	opts := headless.Options(exe, profile, viewW, viewH, append([]chromedp.ExecAllocatorOption{baselineWasm}, extra...)...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{t: t}
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithListener(b.record), chromedp.WithLogf(t.Logf))
	b.ctx = ctx
	t.Cleanup(func() { cancelTab(); cancelAlloc() })
	t.Cleanup(b.finish)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return b
}

// assertShowsNow checks that s shows x, the grid included.
func assertShowsNow(t *testing.T, s pageView, what string, x expectation) {
	t.Helper()
	assert.Equal(t, x, expectation{Status: s.Status, Verdict: s.Verdict, StepPos: s.StepPos, Pool: poolNotation(s.Cells),
		Announce: x.Announce, Events: x.Events}, what)
}
