package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A request's way through the pipeline, stage by stage as the log prints
// it: the demo's two requests, and the fixed door's retired one.
var (
	fullWay   = []string{"intake", "admission", "prefill.bootstrap", "decode.prealloc", "prefill.forward", "prefill.transfer", "decode.transfer", "decode.running", "response", "release"}
	demoWay   = append(append([]string{}, fullWay...), fullWay...)
	retired   = []string{"intake", "admission", "response"}
	demoFixed = append(append([]string{}, fullWay...), retired...)
)

// scrubTo moves the timeline to step as a click on its track does: input,
// then change (a drag fires input at each move and change at its end).
func scrubTo(b *browser, step int) {
	b.t.Helper()
	b.Do(evalVoid(fmt.Sprintf(`(() => { const s = document.getElementById("scrubber"); s.value = %d; s.dispatchEvent(new Event("input", {bubbles: true})); s.dispatchEvent(new Event("change", {bubbles: true})); })()`, step)))
	waitFor(b, "step "+strconv.Itoa(step), fmt.Sprintf(`document.querySelector("#step-pos").textContent.startsWith("Step %d of")`, step))
}

// currentStage is the pipeline's marked stage, or "" when none.
func currentStage(b *browser) string {
	return evalJS[string](b, `(document.querySelector('#pipeline [aria-current="step"]') || {dataset: {}}).dataset.stage || ""`)
}

// The marker follows the log: at each step, the pipeline's current stage
// is the stage the log's row for that step names, and for the demo (both
// doors) the whole way is pinned.
func TestPipelineFollowsTheLog(t *testing.T) {
	b := openHooked(t)
	for _, c := range []struct {
		slug string
		way  []string // nil: only follow the log
	}{
		{"demo", demoWay}, {"demo-fixed", demoFixed}, {"abort-one-half", nil}, {"abort-both", nil},
	} {
		t.Run(c.slug, func(t *testing.T) {
			withT(b, t)
			choosePreset(b, c.slug)
			n := presetsWant[c.slug].Events
			if c.way != nil {
				require.Len(t, c.way, n, "the pinned way covers every event")
			}
			for step := 1; step <= n; step++ {
				scrubTo(b, step)
				logStage := evalJS[string](b, fmt.Sprintf(`document.querySelector('#log li[data-step="%d"]').dataset.stage`, step))
				waitFor(b, "the marker on "+logStage, fmt.Sprintf(`(document.querySelector('#pipeline [aria-current="step"]') || {dataset: {}}).dataset.stage === %s`, jsLit(logStage)))
				if c.way != nil {
					assert.Equal(t, c.way[step-1], currentStage(b), "step %d", step)
				}
				assert.Equal(t, 1, countAll(b, `#pipeline [aria-current="step"]`), "one marked stage at step %d", step)
			}
		})
	}
}

// The door says what it checked and what it ignored; the RDMA link says
// what crossed it.
func TestPipelineDoorAndLink(t *testing.T) {
	b := openPlayground(t)
	scrubTo(b, 12) // r2 at the door
	assert.Equal(t, "Checked req.finished(): false — admitted. Ignored: to_finish = FINISH_ABORT(400), pending since intake.", textOf(b, "#pipeline-door"))
	scrubTo(b, 16) // send_kv_chunk
	assert.Contains(t, textOf(b, "#rdma"), "send_kv_chunk wrote 1 of the 8 pages decode reserved (one placeholder token)")

	setField(b, "#mode", "fixed")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	scrubTo(b, 12)
	assert.Equal(t, "Checked to_finish: FINISH_ABORT(400) pending — retired with its 400 before any page was allocated (no KV sender, no KV receiver).", textOf(b, "#pipeline-door"))
}

// Decode's read window: B's slot of 8 pages is outlined, and the one page
// B's prefill wrote is marked apart from the 7 it did not.
func TestReadWindowOutlinesTheSlot(t *testing.T) {
	b := openPlayground(t)
	assertDemoLeak(t, b)
	require.True(t, evalJS[bool](b, `document.getElementById("grid").classList.contains("tiles")`), "8 pages are tiles")
	assert.Equal(t, 8, countAll(b, "#grid .cell.in-window"))
	assert.Equal(t, 1, countAll(b, "#grid .cell.in-window.wrote"))
	assert.Equal(t, "B", evalJS[string](b, `document.querySelector("#grid .cell.wrote").dataset.owner`))
	assert.Equal(t, 7, countAll(b, `#grid .cell.in-window:not(.wrote)[data-owner="A"][data-state="leaked"]`))
	assert.Contains(t, textOf(b, "#grid .cell.wrote"), "prefill wrote this")
	assert.Contains(t, textOf(b, `#grid .cell[data-page="3"]`), "r1 · A", "a tile names the request that wrote it")
}

// The pool map at 681,280 pages: every page a pixel, and the pixels in
// the leak colour are exactly the leaked pages (1–7, the top row).
func TestPoolMapMarksExactlyTheLeakedPages(t *testing.T) {
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	waitFor(b, "the pool map", jsExists("#pool-map"))
	assert.Equal(t, []int{1024, 666}, evalJS[[]int](b, `[document.getElementById("pool-map").width, document.getElementById("pool-map").height]`))
	// The leak colour of the light scheme (--leak: #b3141f), read back.
	leaked := evalJS[[]int](b, `(() => {
		const c = document.getElementById("pool-map"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, out = [];
		for (let i = 0; i < d.length; i += 4) if (d[i] === 0xb3 && d[i+1] === 0x14 && d[i+2] === 0x1f) out.push(i / 4);
		return out;
	})()`)
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7}, leaked)
	assert.Equal(t, "pages 1–7", textOf(b, "#pool-map-leaks button"))

	clickSel(b, "#pool-map-leaks button")
	waitFor(b, "the grid zoomed to the leak", jsExists(`#grid .cell[data-page="1"]`))
	assert.Equal(t, 7, countAll(b, `#grid .cell[data-state="leaked"]`))
}

// The log keeps the selected step's row in view inside its own scroll box,
// both ways, and leaves the page's scroll alone.
func TestLogKeepsTheSelectedRowInView(t *testing.T) {
	b := openPlayground(t)
	rowInLog := func(step int) string {
		return fmt.Sprintf(`(() => {
			const log = document.getElementById("log"), row = document.querySelector('#log li[data-step="%d"]');
			if (!log || !row || !row.classList.contains("selected")) return false;
			const l = log.getBoundingClientRect(), r = row.getBoundingClientRect();
			return r.top >= l.top - 1 && r.bottom <= l.bottom + 1;
		})()`, step)
	}
	require.Greater(t, evalJS[int](b, `document.getElementById("log").scrollHeight - document.getElementById("log").clientHeight`), 0, "the demo's log scrolls")
	b.Do(evalVoid(`document.getElementById("log").scrollTop = 1e6`))
	pageY := evalJS[float64](b, `scrollY`)
	scrubTo(b, 1)
	waitFor(b, "row 1 in the log's view", rowInLog(1))
	b.Do(evalVoid(`document.getElementById("log").scrollTop = 0`))
	last := evalJS[int](b, `Number(document.getElementById("scrubber").max)`)
	scrubTo(b, last-1)
	waitFor(b, "the row before the last in view", rowInLog(last-1))
	assert.Equal(t, pageY, evalJS[float64](b, `scrollY`), "the page did not scroll")
}

// The marker arrives with a halo when a step is taken on its own (Back,
// Next), and without one while the timeline is dragged, where a halo began
// on every frame, each on a compositor layer of its own (web/pipeline.go).
func TestTheMarkersHaloIsLeftOutOfADrag(t *testing.T) {
	b := openHooked(t)
	const halos = `document.getAnimations().filter((a) => a.animationName === "stage-arrive").length`
	const dragged = `document.getElementById("pipeline").classList.contains("dragged")`
	choosePreset(b, "demo")
	clickSel(b, "#step-back")
	waitFor(b, "the halo of a step back", halos+` > 0`)
	assert.Equal(t, 1, evalJS[int](b, halos), "one stage arrives")
	assert.False(t, evalJS[bool](b, dragged))
	for _, step := range []int{3, 9, 4} {
		scrubTo(b, step)
		assert.True(t, evalJS[bool](b, dragged), "step %d: dragged", step)
		assert.Zero(t, evalJS[int](b, halos), "step %d of a drag: no halo", step)
	}
	clickSel(b, "#step-next")
	waitFor(b, "the halo of a step on", halos+` > 0`)
	assert.Equal(t, "5", evalJS[string](b, `document.getElementById("scrubber").value`), "Next after the drag")
}

// A click on one of the page's own links is navigated by the app in the
// same document (go-app's click handler, which the wasm's copy finds the
// link for with one closest("a"): internal/goappfork/edits.go): the
// incident timeline's link loads its preset, and a click elsewhere on the
// page navigates nowhere.
func TestALinkOfThePageIsNavigatedInPlace(t *testing.T) {
	b := openHooked(t)
	choosePreset(b, "demo")
	evalJS[bool](b, `(window.kvleakSameDocument = true)`)
	clickSel(b, "#step-back") // not in a link
	assert.Equal(t, "demo", valueOf(b, "#preset"), "a click outside a link navigates nowhere")
	clickSel(b, `#timeline li[data-preset="glm-launch"] a`)
	waitFor(b, "the link's preset", `document.querySelector("#preset").value === "glm-launch"`)
	assert.True(t, evalJS[bool](b, `window.kvleakSameDocument === true`), "the app navigated, not the browser")
	assert.Contains(t, evalJS[string](b, `location.search`), "preset=glm-launch")
}

// After every Send the slider's thumb is at the newest step, its last. The
// slider's max and value change in one render, and go-app sets attributes
// in a map's order: a value set while the old max held was clamped to it,
// and about one Send in five left the thumb a request behind.
func TestTheSlidersThumbFollowsEachSend(t *testing.T) {
	b := openHooked(t)
	choosePreset(b, "demo")
	got := run(b, chromedp.Evaluate[[]string](`(async () => {
	  const frame = () => new Promise(r => requestAnimationFrame(r));
	  const s = document.getElementById("scrubber"), out = [];
	  for (let i = 0; i < 30; i++) {
	    document.getElementById("send").click();
	    await frame();
	    out.push(s.value + " of " + s.max);
	  }
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	require.Len(t, got, 30)
	for i, v := range got {
		value, max, _ := strings.Cut(v, " of ")
		assert.Equal(t, max, value, "Send %d: the thumb is at the last step (value %s of %s)", i+1, value, max)
	}
}
