package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// A request's way through the pipeline, stage by stage as the log prints
// it: the demo's two requests, and the fixed door's retired one. Each
// server runs its own intake (prefill's, then decode's); prefill releases
// its pages after the transfer, decode after the response.
var (
	fullWay   = []string{"intake", "intake", "admission", "prefill.bootstrap", "decode.prealloc", "prefill.forward", "prefill.transfer", "release", "decode.transfer", "decode.running", "response", "release"}
	demoWay   = append(append([]string{}, fullWay...), fullWay...)
	retired   = []string{"intake", "intake", "admission", "response"}
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
	t.Parallel()
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
			n := presetWantOf(t, c.slug).Events
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
	t.Parallel()
	b := openPlayground(t)
	scrubTo(b, 15) // r2 at the door
	assert.Equal(t, "Checked req.finished(): false — admitted. Ignored: to_finish = FINISH_ABORT(400), pending since intake.", textOf(b, "#pipeline-door"))
	scrubTo(b, 18) // prefill's forward pass: nothing has crossed yet
	assert.Contains(t, textOf(b, "#rdma"), "RDMA link: nothing transferred yet")
	scrubTo(b, 19) // send_kv_chunk
	assert.Contains(t, textOf(b, "#rdma"), "RDMA link: wrote 1 token into 1 of 8 reserved pages; decode commits 125 positions (prefill's one placeholder token)")
	assertLinkBesideRelease(t, b)

	setField(b, "#mode", "fixed")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	scrubTo(b, 15)
	assert.Equal(t, "Checked to_finish: FINISH_ABORT(400) pending — retired with its 400 before any page was allocated (no KV sender, no KV receiver).", textOf(b, "#pipeline-door"))
}

// Decode's read window: B's slot of 8 pages is outlined, and the one page
// B's prefill wrote is marked apart from the 7 it did not.
func TestReadWindowOutlinesTheSlot(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	assertDemoLeak(t, b)
	require.True(t, evalJS[bool](b, `document.getElementById("grid").classList.contains("tiles")`), "8 pages are tiles")
	assert.Equal(t, 8, countAll(b, "#grid .cell.in-window"))
	assert.Equal(t, 1, countAll(b, "#grid .cell.in-window.wrote"))
	assert.Equal(t, "B", evalJS[string](b, `document.querySelector("#grid .cell.wrote").dataset.owner`))
	assert.Equal(t, 7, countAll(b, `#grid .cell.in-window.state-leaked:not(.wrote)[data-owner="A"]`))
	// Prefill wrote only position 0 of page 1 (its placeholder); positions
	// 1–15 still hold A's KV.
	assert.Equal(t, 1, countAll(b, "#grid .cell.in-window.wrote.mixed"))
	assert.Contains(t, textOf(b, "#grid .cell.wrote"), "prefill wrote its first positions only")
	assert.Contains(t, textOf(b, `#grid .cell[data-page="3"]`), "r1 · A", "a tile names the request that wrote it")
}

// The pool map of decode's pool at launch scale: the pixels in the leak
// colour are exactly those of the leaked pages (A's and D's that B read,
// as the map's list names them), but where the frame drawn around each
// run covers them. A pixel of several pages (model.LayOutMap) shows the
// leak when any of its pages leaked.
func TestPoolMapMarksExactlyTheLeakedPages(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	m := mapOf(b, "pool-map")
	l := model.LayOutMap(mustPreset(t, "glm-launch").Config.PagesOf(engine.ServerDecode), int(m.Box))
	var leakedRuns [][2]int
	for _, r := range evalJS[[]region](b, fmt.Sprintf(regionsJS, "pool-map-regions")) {
		if r.Leaked {
			leakedRuns = append(leakedRuns, [2]int{r.First, r.Last})
		}
	}
	require.Len(t, leakedRuns, 2, "A's and D's")
	want := map[int]bool{}
	for _, r := range leakedRuns {
		for px := l.PixelOf(r[0]); px <= l.PixelOf(r[1]); px++ {
			want[px] = true
		}
	}
	// The light scheme's leak colour (--leak: #b3141f) and the ring's
	// (--text: #1d1d1f), pixel by pixel: 0 other, 1 leak, 2 ring.
	px := evalJS[[]int](b, `(() => {
		const c = document.getElementById("pool-map"), d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data, out = [];
		for (let i = 0; i < d.length; i += 4) {
			out.push(d[i] === 0xb3 && d[i+1] === 0x14 && d[i+2] === 0x1f ? 1 : d[i] === 0x1d && d[i+1] === 0x1d && d[i+2] === 0x1f ? 2 : 0);
		}
		return out;
	})()`)
	require.Len(t, px, l.Width*l.Height)
	leak, covered, ring := 0, 0, 0
	for i, c := range px {
		if c == 2 {
			ring++
		}
		switch {
		case c == 1:
			leak++
			require.True(t, want[i], "pixel %d (%d,%d) is in the leak colour, but none of its pages leaked", i, i%l.Width, i/l.Width)
		case want[i] && c == 2:
			covered++
		case want[i]:
			require.Failf(t, "a leaked pixel is neither the leak's colour nor the frame's", "pixel %d (%d,%d)", i, i%l.Width, i/l.Width)
		}
	}
	assert.Equal(t, len(want), leak+covered)
	assert.Less(t, covered, len(want)/10, "the frame covers few of the leaked pixels")
	assert.Greater(t, ring, 2*l.Width, "the leaked spans are ringed (web/dom/ringpath.go): at least a frame's two sides")

	// Each leaked span's pages zoom the grid to exactly its pages, every
	// cell leaked and of the tenant who wrote it.
	for i, r := range leakedRuns {
		b.Do(evalVoid(fmt.Sprintf(`document.querySelectorAll("#pool-map-regions .region-leaked .region-pages")[%d].click()`, i)))
		waitFor(b, fmt.Sprintf("the grid zoomed to pages %d–%d", r[0], r[1]), fmt.Sprintf(`(() => {
			const cells = document.querySelectorAll("#grid .cell[data-page]");
			return cells.length > 0 && cells[0].dataset.page.split("-")[0] === "%d" && cells[cells.length-1].dataset.page.split("-").pop() === "%d";
		})()`, r[0], r[1]))
		next, owner := r[0], ""
		for _, c := range gridCells(b, "") {
			lo, hi, _ := strings.Cut(c.Page, "-")
			if hi == "" {
				hi = lo
			}
			assert.Equal(t, strconv.Itoa(next), lo, "cell %v follows the one before", c)
			assert.Equal(t, "leaked", c.State, "cell %v", c)
			if owner == "" {
				owner = c.Owner
			}
			assert.Equal(t, owner, c.Owner, "cell %v: one tenant's span", c)
			n, err := strconv.Atoi(hi)
			require.NoError(t, err)
			next = n + 1
		}
		assert.Equal(t, r[1]+1, next, "the cells cover pages %d–%d", r[0], r[1])
	}
}

// The log keeps the selected step's row in view inside its own scroll box,
// both ways, and leaves the page's scroll alone.
func TestLogKeepsTheSelectedRowInView(t *testing.T) {
	t.Parallel()
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
// on every frame, each on a compositor layer of its own (web/run/pipeline.go).
func TestTheMarkersHaloIsLeftOutOfADrag(t *testing.T) {
	t.Parallel()
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
// link for with one closest("a"): patches/goapp/closest-link.patch): the
// incident timeline's link loads its preset, and a click elsewhere on the
// page navigates nowhere.
func TestALinkOfThePageIsNavigatedInPlace(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// assertLinkBesideRelease: the RDMA link's row ends where release, which
// spans both servers' rows, begins; its words are not drawn under it.
func assertLinkBesideRelease(t *testing.T, b *browser) {
	t.Helper()
	link, release := stillRect(b, "#rdma"), stillRect(b, `#pipeline [data-stage="release"]`)
	assert.False(t, link.intersects(release), "the RDMA link %s overlaps release %s", link, release)
}
