package e2e

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// cellsOf is, as JSON, every cell under root: its attributes but the tab
// stop, sorted, and its content's HTML.
func cellsOf(root string) string {
	return `JSON.stringify([...` + root + `.querySelectorAll("[data-idx]")].map(el =>
  [...el.attributes].filter(a => a.name !== "tabindex").map(a => a.name + "=" + a.value).sort().join(" ") + " | " + el.innerHTML))`
}

// gridDOM is the grid's cells on the page; freshGrid the same cells as a
// fresh render writes them (the test hooks' gridHTML, web/dom/grid.go).
var (
	gridDOM   = cellsOf(`document.querySelector("#grid")`)
	freshGrid = cellsOf(`(() => { const t = document.createElement("template"); t.innerHTML = kvleakTest.gridHTML(); return t.content; })()`)
)

// The grid's cells are patched in place when the grid keeps its shape
// (web/dom/grid.go, web/dom/island.go). Through scrubs, steps, Sends and
// the 681,280-page preset, the cells on the page are the ones a fresh
// render writes.
func TestThePatchedGridIsWhatAFreshRenderWrites(t *testing.T) {
	t.Parallel()
	b := openTestHooks(t)
	check := func(what string) {
		t.Helper()
		waitLate(b)
		assert.JSONEq(t, evalJS[string](b, freshGrid), evalJS[string](b, gridDOM), "%s: the grid at step %s", what, textOf(b, "#step-pos"))
	}
	choosePreset(b, "demo")
	check("the demo")
	// A's bootstrap, B's reservation over A's freed pages, the last event,
	// A's response.
	for _, step := range []int{4, 17, 24, 11} {
		scrubTo(b, step)
		check("a scrub")
	}
	clickSel(b, "#step-back")
	check("Back")
	sendRequest(b, "A", "300", "")
	check("a Send")
	sendRequest(b, "B", "90", "")
	check("another Send")
	clickSel(b, "#step-back")
	check("Back after the Sends")
	// A grid of another size after a scrub: a run go-app keeps (its string
	// is the one it holds) must not show the scrub's patched cells.
	// The grid is decode's pool (#decode-pool); prefill's stays at 128, so
	// B's 125 tokens still pass decode's intake only and get a 200, from
	// pages decode never wrote (its free list is not short), as the model
	// words it (wider).
	choosePreset(b, "demo")
	setField(b, "#decode-pool", "1024")
	waitFor(b, "64 cells", `document.querySelectorAll("#grid [data-idx]").length === 64`)
	scrubTo(b, 4)
	check("a scrub in a pool of 64 pages")
	setField(b, "#decode-pool", "768")
	waitFor(b, "48 cells", `document.querySelectorAll("#grid [data-idx]").length === 48`)
	check("a smaller pool after a scrub")
	// Back to the first size: the cells patched before hold what the fresh
	// runs wrote, not what was patched into them then.
	setField(b, "#decode-pool", "1024")
	waitFor(b, "64 cells again", `document.querySelectorAll("#grid [data-idx]").length === 64`)
	wider := model.NewSession()
	require.NoError(t, wider.SetNumber(model.DecodePool, "1024"))
	require.Equal(t, "200", wider.Response().Status)
	require.Equal(t, wider.Response().Verdict, textOf(b, "#verdict"), "B passes decode's intake only")
	for _, step := range []int{24, 4, 17} {
		scrubTo(b, step)
		check("a scrub in the pool of 64 pages again")
	}
	choosePreset(b, "glm-launch")
	// Admission (nothing in decode's pool yet), A's transfer into decode's
	// pool, A's reservation.
	for _, step := range []int{3, 7, 5} {
		scrubTo(b, step)
		check("a scrub at 681,280 pages")
	}
}

// A step keeps the cells' elements, so a focused cell keeps the focus
// while the reader steps with the keyboard (a run built again dropped it);
// and a focused cell in the read window shows a ring of its own (the
// window's outline hid it).
func TestAStepKeepsTheCellsAndTheFocus(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	choosePreset(b, "demo")
	scrubTo(b, 22) // B's decode.running: decode attends over its read window
	waitLate(b)
	before := evalJS[string](b, gridDOM)
	ring := func(el string) string {
		return evalJS[string](b, `(el => { const s = getComputedStyle(el); return s.outlineStyle + " " + s.outlineWidth + " " + s.outlineColor; })(`+el+`)`)
	}
	inWindow := ring(`document.querySelector('#grid [data-idx="1"]')`)
	b.Do(evalVoid(`(() => {
	  for (const el of document.querySelectorAll("#grid [data-idx]")) el.kvleakKept = true;
	  document.querySelector('#grid [data-idx="0"]').focus();
	})()`))
	pressKeys(b, kb.ArrowRight) // the keyboard moves the focus: it shows
	focused := evalJS[string](b, `document.activeElement.dataset.idx`)
	require.Equal(t, "1", focused)
	require.True(t, evalJS[bool](b, `document.activeElement.classList.contains("in-window")`), "the cell is in the read window")
	assert.NotEqual(t, inWindow, ring(`document.activeElement`), "the focused cell shows a focus ring, not the read window's outline")
	pressKeys(b, ",")
	waitFor(b, "step 21", `document.querySelector("#step-pos").textContent.startsWith("Step 21 of")`)
	waitLate(b)
	require.NotEqual(t, before, evalJS[string](b, gridDOM), "the step changes cells")
	assert.Equal(t, 0, evalJS[int](b, `[...document.querySelectorAll("#grid [data-idx]")].filter(el => !el.kvleakKept).length`), "every cell is the element it was")
	assert.Equal(t, focused, evalJS[string](b, `document.activeElement.dataset.idx || "(focus lost)"`), "the focused cell keeps the focus")
}
