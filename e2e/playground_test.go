package e2e

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// The article's demo, as the postmortem prints it.
const (
	demoSecret      = "PROJECT_ZEPHYR_Q4_FORECAST"
	demoLeakVerdict = "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1"
	demoLeakSpoken  = "7 pages of tenant A leaked to tenant B"
	demoFixVerdict  = "Rejected with 400 before any page was allocated"
	// SGLang's validate_input_length message, with the demo's numbers.
	demoFixReason = "Input length (125 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate."
)

// replayDemoByForm starts over and sends the demo's two requests through
// the form, as a reader would: A's 120-token secret, then B's 125 tokens,
// at or over prefill's max_req_input_len (122), under decode's (138).
func replayDemoByForm(b *browser) {
	b.t.Helper()
	resetRun(b)
	sendRequest(b, "A", "120", demoSecret)
	sendRequest(b, "B", "125", "summarise my notes")
}

// assertDemoLeak checks the vulnerable door's outcome of the demo.
func assertDemoLeak(t *testing.T, b *browser) {
	t.Helper()
	assert.Equal(t, "200", textOf(b, "#status"), "#status")
	assert.Equal(t, expectAt(t, "demo", 0).Pool, gridPool(b), "#grid")
	leaked := gridCells(b, ".state-leaked")
	if assert.Len(t, leaked, 7, "leaked cells: %s", joinCells(leaked)) {
		for _, c := range leaked {
			assert.Equal(t, "A", c.Owner, "leaked cell %s", c)
		}
	}
	assert.Equal(t, demoLeakVerdict, textOf(b, "#verdict"))
	body := textOf(b, "#response")
	assert.Contains(t, body, "tenant-A:"+demoSecret, "#response")
	assert.Contains(t, body, "tenant-B:<placeholder-token>", "#response")
	assert.Equal(t, "status", evalJS[string](b, `document.querySelector("#announce").getAttribute("role")`), "#announce role")
	assert.Contains(t, textOf(b, "#announce"), demoLeakSpoken, "#announce")
}

// assertDemoRejected checks the fixed door's outcome of the demo: tenant B
// is refused before decode reserves anything for it.
func assertDemoRejected(t *testing.T, b *browser) {
	t.Helper()
	// The log is a lower panel: it follows the 400 after the paint.
	waitLate(b)
	assert.Equal(t, "400", textOf(b, "#status"), "#status")
	assert.Equal(t, expectAt(t, "demo-fixed", 0).Pool, gridPool(b), "#grid: none leaked, none of B's")
	assert.Contains(t, textOf(b, "#verdict"), demoFixVerdict, "#verdict")
	rows := logRows(b)
	assert.NotEmpty(t, rows)
	r2 := evalJS[[]string](b, `[...document.querySelectorAll("#log li[data-step][data-stage]")]
		.filter(li => (li.querySelector(".log-req") || {}).textContent?.startsWith("r2 "))
		.map(li => li.dataset.stage)`)
	assert.NotEmpty(t, r2, "log rows of r2 (tenant B)")
	assert.NotContains(t, r2, "decode.prealloc", "decode must not reserve pages for r2")
	assert.NotContains(t, textOf(b, "#response"), "tenant-A:", "#response carries nothing of tenant A")
	assert.Equal(t, "Error body: "+demoFixReason, textOf(b, ".reason"), "SGLang's own message")
}

// TestDemoLeakVulnerable is the article's demo in vulnerable mode, first as
// the page opens (the demo preset replayed), then typed into the form.
func TestDemoLeakVulnerable(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	require.Equal(t, "demo", valueOf(b, "#preset"), "the page opens on the demo preset")
	require.Equal(t, "vulnerable", valueOf(b, "#mode"))

	t.Run("preset", func(t *testing.T) {
		withT(b, t)
		assert.Equal(t, "B", valueOf(b, "#tenant"), "form prefilled with tenant B")
		assert.Equal(t, "125", valueOf(b, "#prompt-tokens"), "form prefilled with B's 125 tokens")
		assertDemoLeak(t, b)
		assertCellHooks(t, b)
	})
	t.Run("form", func(t *testing.T) {
		withT(b, t)
		replayDemoByForm(b)
		assertDemoLeak(t, b)
	})
}

// TestDemoFixedRejects is the same demo behind the fixed door.
func TestDemoFixedRejects(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)

	t.Run("preset", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "fixed")
		waitFor(b, "a 400", `document.querySelector("#status").textContent === "400"`)
		assertDemoRejected(t, b)
	})
	t.Run("form", func(t *testing.T) {
		withT(b, t)
		require.Equal(t, "fixed", valueOf(b, "#mode"))
		replayDemoByForm(b)
		assertDemoRejected(t, b)
	})
	t.Run("back to vulnerable", func(t *testing.T) {
		withT(b, t)
		setField(b, "#mode", "vulnerable")
		waitFor(b, "a 200", `document.querySelector("#status").textContent === "200"`)
		assertDemoLeak(t, b)
	})
}

var cellStates = map[string]bool{"free": true, "allocated": true, "stale": true, "leaked": true}

var pageHook = regexp.MustCompile(`^\d+(-\d+)?$`)

// assertCellHooks checks the grid's stable hooks on every cell: data-page
// (an id or first-last), data-owner (a tenant, empty when none) and its
// state, a class state-… (one of four).
func assertCellHooks(t *testing.T, b *browser) {
	t.Helper()
	type hooks struct {
		Page, Owner, State *string
	}
	all := evalJS[[]hooks](b, `[...document.querySelectorAll("#grid .cell")].map(c => (
		{Page: c.getAttribute("data-page"), Owner: c.getAttribute("data-owner"), State: `+cellStateJS+` || null}))`)
	require.NotEmpty(t, all, "#grid has cells")
	var noOwner []string
	for i, h := range all {
		if !assert.NotNil(t, h.Page, "cell %d has data-page", i) || !assert.NotNil(t, h.State, "cell %d has a state class", i) {
			continue
		}
		assert.Regexp(t, pageHook, *h.Page, "cell %d data-page", i)
		assert.True(t, cellStates[*h.State], "cell %d state %q", i, *h.State)
		if h.Owner == nil {
			noOwner = append(noOwner, *h.Page+":"+*h.State)
		}
	}
	if len(noOwner) > 0 {
		t.Errorf("%d of %d cells have no data-owner attribute (the hook says every cell carries it, empty when no tenant), e.g. %s",
			len(noOwner), len(all), strings.Join(noOwner[:min(5, len(noOwner))], " "))
	}
}

// TestPlaygroundInteractions covers the smaller controls, one subtest each,
// all in one browser. Each subtest sets up the state it needs.
func TestPlaygroundInteractions(t *testing.T) {
	t.Parallel()
	b := openHooked(t)

	t.Run("reset empties the log", func(t *testing.T) {
		withT(b, t)
		require.Positive(t, countAll(b, "#log li"))
		clickSel(b, "#reset")
		waitLogRows(b, 0)
		assert.Equal(t, 0, countAll(b, "#log li"))
		assert.Equal(t, "—", textOf(b, "#status"))
		assert.Equal(t, "No request sent yet.", textOf(b, "#verdict"))
		assert.Equal(t, 0, countAll(b, "#response li"))
		assert.Equal(t, expectAt(t, "demo", 1).Pool, gridPool(b), "#grid after reset: every page free, as before step 1's")
	})

	t.Run("add tenant then send as D", func(t *testing.T) {
		withT(b, t)
		resetRun(b)
		clickSel(b, "#add-tenant")
		waitFor(b, "tenant D in the list", `[...document.querySelector("#tenant").options].some(o => o.value === "D")`)
		waitFor(b, "tenant D selected", `document.querySelector("#tenant").value === "D"`)
		setField(b, "#prompt-tokens", "4")
		clickSel(b, "#send")
		waitLogGrows(b, 0)
		assert.Equal(t, "200", textOf(b, "#status"))
		assert.Contains(t, textOf(b, ".status-who"), "tenant D")
		assert.NotEmpty(t, gridCells(b, "[data-owner=D]"), "pages allocated to D")
		assert.Contains(t, textOf(b, "#log"), "r1 · D")
	})

	// restoreEnd puts the request form and the router back as the other
	// subtests expect them, even when a subtest stops early.
	restoreEnd := func(t *testing.T) {
		t.Cleanup(func() {
			setField(b, "#end-early", "never")
			setField(b, "#cancel", "both")
			settle(b)
		})
	}

	t.Run("end early leaves a lingering half", func(t *testing.T) {
		withT(b, t)
		restoreEnd(t)
		setField(b, "#cancel", "one")
		settle(b)
		resetRun(b)
		setField(b, "#end-early", "cancel:prefill.transfer")
		sendRequest(b, "A", "8", demoSecret)
		waitFor(b, "the lingering panel", jsExists("#lingering"))
		settle := evalJS[[]string](b, `[...document.querySelectorAll("#lingering [data-settle]")].map(e => e.dataset.settle)`)
		assert.Equal(t, []string{"1-drained", "1-timeout", "1-error"}, settle, "one button per outcome")
		// A's 8 tokens: decode reserved fill_len = 8 tokens, one 16-token page.
		assert.Equal(t, "Cancelled by the client at prefill.transfer: decode still holds 1 page, waiting for the prefill half's ABORT_ACK", textOf(b, "#verdict"))
		assert.Positive(t, countAll(b, "#grid .state-allocated"), "the lingering half holds its pages")
		rows := countAll(b, "#log li[data-step][data-stage]")
		clickSel(b, `#lingering [data-settle="1-drained"]`)
		waitFor(b, "the lingering panel gone", `document.querySelector("#lingering") === null`)
		waitLogGrows(b, rows) // settling is logged; the log follows after the paint
		assert.Equal(t, 0, countAll(b, "#grid .state-allocated"), "no page held after the drain")
		assert.Equal(t, 0, countAll(b, "#notice"), textOf(b, "#notice"))
	})

	t.Run("two lingering halves settle one by one", func(t *testing.T) {
		withT(b, t)
		restoreEnd(t)
		// 16 pages, the router cancels one half: r1 (A) lingers, r2 (B) ran.
		choosePreset(b, "abort-one-half")
		waitFor(b, "r1 lingering", jsExists(`#lingering [data-settle="1-drained"]`))
		setField(b, "#end-early", "cancel:prefill.transfer")
		sendRequest(b, "C", "8", "second")
		waitFor(b, "r3 lingering too", jsExists(`#lingering [data-settle="3-drained"]`))
		require.Equal(t, 2, countAll(b, "#lingering li"))

		clickSel(b, `#lingering [data-settle="1-drained"]`)
		waitFor(b, "r1 settled", `document.querySelectorAll("#lingering li").length === 1`)
		require.Equal(t, 1, countAll(b, `#lingering [data-settle="3-drained"]`), "r3's buttons remain")
		clickSel(b, `#lingering [data-settle="3-drained"]`)
		waitFor(b, "#lingering gone or a notice", `document.querySelector("#lingering") === null || document.querySelector("#notice") !== null`)
		assert.Equal(t, 0, countAll(b, "#notice"), "notice after settling r3: %s", textOf(b, "#notice"))
		assert.Equal(t, 0, countAll(b, "#lingering"), "r3 still lingers after its drained button was clicked")
	})

	t.Run("selecting a log row shows its step", func(t *testing.T) {
		withT(b, t)
		choosePreset(b, "demo")
		assertDemoLeak(t, b)
		total := countAll(b, "#log li[data-step][data-stage]")
		step := evalJS[string](b, `[...document.querySelectorAll('#log li[data-stage="decode.prealloc"]')].pop().dataset.step`)
		require.NotEmpty(t, step)
		clickPath(b, `[...document.querySelectorAll('#log li[data-stage="decode.prealloc"] button')].pop()`)
		want := fmt.Sprintf("Step %s of %d", step, total)
		waitFor(b, want, fmt.Sprintf(`document.querySelector("#step-pos").textContent.includes(%s)`, jsLit(want)))
		assert.Positive(t, countAll(b, "#grid .cell.touched"), "touched cells are outlined")
		// The log follows after the paint (web/lateviews.go): wait for it.
		waitFor(b, "the row shows it is selected", fmt.Sprintf(
			`document.querySelector('#log li[data-step="%s"] button')?.getAttribute("aria-pressed") === "true"`, step))
		// Back to the latest step.
		clickSel(b, "#log-latest")
		waitFor(b, "the latest step", fmt.Sprintf(`document.querySelector("#step-pos").textContent.includes(%s)`,
			jsLit(fmt.Sprintf("Step %d of %d", total, total))))
		assert.Equal(t, 0, countAll(b, "#grid .cell.touched"))
	})

	t.Run("selecting a log row past the first 300", func(t *testing.T) {
		// The log lists only the newest 300 events: each listed row must
		// still select its own step.
		withT(b, t)
		resetRun(b)
		setField(b, "#tenant", "A")
		setField(b, "#prompt-tokens", "8")
		settle(b)
		lastStep := `+(([...document.querySelectorAll("#log li")].pop() || {dataset: {step: 0}}).dataset.step)`
		total := 0
		for total <= 300 {
			clickSel(b, "#send")
			waitFor(b, fmt.Sprintf("events past step %d", total), fmt.Sprintf(`%s > %d`, lastStep, total))
			total = evalJS[int](b, lastStep)
		}
		require.Greater(t, total, 300)
		firstStep := evalJS[string](b, `document.querySelector("#log li").dataset.step`)
		first, err := strconv.Atoi(firstStep)
		require.NoError(t, err)
		require.Greater(t, first, 1, "the oldest events are not listed")
		listed := countAll(b, "#log li")
		assert.Equal(t, total-first+1, listed, "the listed rows run from step %d to the newest, %d", first, total)
		assert.LessOrEqual(t, listed, 300, "at most 300 rows are listed")
		assert.Greater(t, listed, 200, "the window moves in blocks of 100 events")
		assert.Contains(t, textOf(b, "#log-panel > .hint"), fmt.Sprintf("(the first %d are not listed)", first-1))
		clickSel(b, "#log li button")
		waitFor(b, "#step-pos to leave the latest step", fmt.Sprintf(`!document.querySelector("#step-pos").textContent.includes("Step %d of")`, total))
		assert.Equal(t, fmt.Sprintf("Step %s of %d", firstStep, total), textOf(b, "#step-pos"), "the first listed row selects its own step")
		clickSel(b, "#log-latest")
		waitFor(b, "the latest step", `document.querySelector("#log-latest") === null`)
	})

	t.Run("hover and focus describe a cell", func(t *testing.T) {
		// After a new run, not just on the page as first drawn: the
		// details must describe the cell as it is now.
		withT(b, t)
		b.Do(chromedp.MouseEvent(chromedp.MouseMoved, 0, 0)) // off the grid
		resetRun(b)
		sendRequest(b, "A", "3", "hover-me")
		first, third := `#grid .cell:first-child`, `#grid .cell:nth-child(3)`
		label := func(sel string) string {
			return evalJS[string](b, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-label")`, jsLit(sel)))
		}
		detailsChanged := func(prev string) string {
			return fmt.Sprintf(`document.querySelector("#cell-details").textContent !== %s`, jsLit(prev))
		}

		want, prev := label(first), textOf(b, "#cell-details")
		require.Contains(t, want, "hover-me", "the cell's own label is current")
		hoverOn(b, first)
		waitFor(b, "#cell-details to change on hover", detailsChanged(prev))
		assert.Equal(t, want, textOf(b, "#cell-details"), "details of the hovered cell")

		want, prev = label(third), textOf(b, "#cell-details")
		b.Do(chromedp.Focus(chromedp.CSS(third)))
		waitFor(b, "#cell-details to change on focus", detailsChanged(prev))
		assert.Equal(t, want, textOf(b, "#cell-details"), "details of the focused cell")
		// The third cell is index 2: SGLang's page 3 (page 0 is reserved).
		assert.Contains(t, want, "Page "+strconv.Itoa(engine.PageID(2))+":", "a single-page cell names its page: %q", want)
		// The pointer still rests on the first cell: the grid redrawn for
		// the new focus must not hand the details back to it.
		settle(b)
		assert.Equal(t, want, textOf(b, "#cell-details"), "details of the focused cell, once the grid settled")
	})

	t.Run("keyboard reaches and activates Send", func(t *testing.T) {
		withT(b, t)
		resetRun(b)
		setField(b, "#tenant", "A")
		setField(b, "#prompt-tokens", "3")
		settle(b)
		// Start from the top of the document: a blur alone leaves Chrome's
		// sequential-navigation starting point where the last subtest's
		// focus was (a grid cell, after which Tab runs through the sections).
		b.Do(evalVoid(`document.activeElement && document.activeElement.blur(); document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute("tabindex"); window.scrollTo(0, 0)`))
		var order []string
		for i := 0; i < 100 && activeID(b) != "send"; i++ { // a bound, not a budget: Send is some 60 stops in
			pressKeys(b, kb.Tab)
			order = append(order, activeID(b))
		}
		require.Equal(t, "send", activeID(b), "Tab never reached #send; focus went %s", strings.Join(order, " → "))
		pressKeys(b, kb.Enter)
		waitLogGrows(b, 0)
		assert.Equal(t, "200", textOf(b, "#status"))
		assert.Contains(t, textOf(b, ".status-who"), "tenant A")
	})
}

// TestScreenshots saves the demo and the real-scale preset at desktop and
// phone widths for a human to look at, and checks that nothing is wider
// than a phone's screen.
func TestScreenshots(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	dir := filepath.Join(repoRoot(t), "build", "screenshots")
	shoot := func(name string) {
		b.Screenshot(filepath.Join(dir, "desktop"+name+".png"), 1280)
		b.Screenshot(filepath.Join(dir, "phone"+name+".png"), phoneWidth)
		assertFitsWidth(t, b, phoneWidth)
	}
	assertDemoLeak(t, b)
	shoot("")
	choosePreset(b, "glm-launch")
	waitFor(b, "the real-scale grid", jsExists(`#grid .cell[data-page^="0-"]`))
	shoot("-glm-launch")
	choosePreset(b, "symmetric")
	waitFor(b, "the symmetric pools' 400", `document.querySelector("#verdict").textContent.includes("400")`)
	shoot("-symmetric")
	shootViews(t, b, serveSite(t), dir, "")
	shootMaps(t, b, serveSite(t), dir, "")
}

const phoneWidth = 360

// assertFitsWidth checks that at a viewport of width CSS pixels nothing
// makes the page scroll sideways, naming the elements that stick out.
func assertFitsWidth(t *testing.T, b *browser, width int64) {
	t.Helper()
	b.Do(chromedp.EmulateViewport(width, viewH))
	defer b.Do(chromedp.ResetViewport())
	waitFor(b, fmt.Sprintf("a %dpx viewport", width), fmt.Sprintf(`window.innerWidth === %d`, width))
	type overflow struct {
		ScrollWidth int      `json:"scrollWidth"`
		Wide        []string `json:"wide"`
	}
	o := evalJS[overflow](b, fmt.Sprintf(`(() => {
		const w = %d, wide = [];
		for (const el of document.querySelectorAll("#playground *")) {
			const r = el.getBoundingClientRect();
			if (r.width > 0 && (r.right > w + 0.5 || r.left < -0.5) && !el.closest(".visually-hidden")) {
				wide.push((el.id ? "#" + el.id : el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ").join(".") : "")) +
					" [" + Math.round(r.left) + "," + Math.round(r.right) + "]");
			}
		}
		return {scrollWidth: document.documentElement.scrollWidth, wide: wide.slice(0, 10)};
	})()`, width))
	assert.LessOrEqual(t, o.ScrollWidth, int(width), "page width at a %dpx viewport", width)
	assert.Empty(t, o.Wide, "elements past the right edge at %dpx", width)
}
