package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// mapShown is a pool map as the page laid it out and drew it.
type mapShown struct {
	Box           float64 `json:"box"` // its box's width, CSS px
	Width, Height int     // the canvas's pixels
	CSSHeight     float64 `json:"cssHeight"`
	CSSRight      float64 `json:"cssRight"`
	Drawn         bool    `json:"drawn"` // its first pixel is opaque
}

// mapOf reads the map of canvas id once it is laid out for its box and
// drawn.
func mapOf(b *browser, id string) mapShown {
	b.t.Helper()
	js := fmt.Sprintf(`(() => {
		const c = document.getElementById(%q);
		if (!c) return null;
		const r = c.getBoundingClientRect(), box = c.parentElement.getBoundingClientRect();
		return {box: box.width, Width: c.width, Height: c.height, cssHeight: r.height, cssRight: r.right,
			drawn: c.getContext("2d").getImageData(0, 0, 1, 1).data[3] === 255};
	})()`, id)
	pages := mustPreset(b.t, "glm-launch").Config.PagesOf(map[string]engine.Server{"prefill-map": engine.ServerPrefill, "pool-map": engine.ServerDecode}[id])
	var m mapShown
	waitFor(b, id+" drawn", fmt.Sprintf(`(%s || {}).drawn === true`, js))
	for range 50 { // the box may still settle after the first drawing
		m = evalJS[mapShown](b, js)
		l := model.LayOutMap(pages, int(m.Box))
		if m.Drawn && m.Width == l.Width && m.Height == l.Height {
			return m
		}
		waitFrames(b, 2)
	}
	l := model.LayOutMap(pages, int(m.Box))
	b.t.Fatalf("%s: canvas %d×%d for a box of %.1f px, the model lays out %d×%d", id, m.Width, m.Height, m.Box, l.Width, l.Height)
	return m
}

// waitFrames waits for n animation frames.
func waitFrames(b *browser, n int) {
	b.t.Helper()
	run(b, chromedp.Evaluate[bool](fmt.Sprintf(`(async () => { for (let i = 0; i < %d; i++) await new Promise(r => requestAnimationFrame(r)); return true; })()`, n), chromedp.EvalAwaitPromise))
}

// At launch scale, on a laptop's screen and on a phone's, each pool's map
// is at most 360 px tall and fits the width, whatever the pool's size: it
// folds as many pages into a pixel as its box asks (model.LayOutMap).
func TestPoolMapsFitTheScreen(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	for _, w := range []int64{1280, phoneWidth} {
		b.Do(chromedp.EmulateViewport(w, 800))
		waitFor(b, fmt.Sprintf("a %dpx viewport", w), fmt.Sprintf(`window.innerWidth === %d`, w))
		for _, id := range []string{"prefill-map", "pool-map"} {
			m := mapOf(b, id)
			assert.LessOrEqual(t, m.CSSHeight, float64(model.MapMaxHeight)+0.5, "%s at %d px: its height", id, w)
			assert.LessOrEqual(t, m.CSSRight, float64(w), "%s at %d px: within the screen's width", id, w)
			assert.Greater(t, m.CSSHeight, float64(model.MapMaxHeight)/2, "%s at %d px: the map uses its room", id, w)
		}
		assertFitsWidth(t, b, w)
	}
	b.Do(chromedp.ResetViewport())
}

// region is a span of a pool map's list, as the page shows it.
type region struct {
	Pages, Whose, Now string
	Leaked            bool
	First, Last       int
}

const regionsJS = `[...document.querySelectorAll("#%s .region")].map(li => ({
	Pages: li.querySelector(".region-pages").textContent, Whose: li.querySelector(".region-whose").textContent,
	Now: li.querySelector(".region-now").textContent, Leaked: li.classList.contains("region-leaked"),
	First: +(li.querySelector(".region-pages").dataset.first ?? -1), Last: +(li.querySelector(".region-pages").dataset.last ?? -1)}))`

// segment is a part of the response body, as the response panel shows it.
type segment struct {
	Pages, Who string
	Leaked     bool
}

// Beside decode's map, the spans B read are named in the response panel's
// words — the same pages, the same writer — and the leaked ones marked so;
// the pool's free tail follows them. Prefill's map names whose stale KV it
// keeps. A reader who cannot tell the colours apart gets the same story.
func TestPoolMapRegionsSayWhatTheResponseSays(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	waitFor(b, "the regions", `document.querySelectorAll("#pool-map-regions .region").length > 0`)
	body := evalJS[[]segment](b, `[...document.querySelectorAll("#response .seg")].map(li => ({
		Pages: li.querySelector(".seg-pages").textContent, Who: li.querySelector(".seg-who").textContent, Leaked: li.classList.contains("seg-leaked")}))`)
	require.NotEmpty(t, body)
	regions := evalJS[[]region](b, fmt.Sprintf(regionsJS, "pool-map-regions"))
	var read []segment
	for _, r := range regions {
		if r.Leaked || strings.Contains(r.Now, "read by") {
			read = append(read, segment{r.Pages, r.Whose, r.Leaked})
		}
	}
	assert.Equal(t, body, read, "the spans B read, in the response panel's words")
	last := regions[len(regions)-1]
	assert.Equal(t, "free", last.Now, "the free tail: %+v", last)
	assert.Equal(t, mustPreset(t, "glm-launch").Config.PagesOf(engine.ServerDecode)-1, last.Last, "it ends with the pool")
	assert.Contains(t, textOf(b, "#pool-map-figure .map-window"), "read window for r")

	prefill := evalJS[[]region](b, fmt.Sprintf(regionsJS, "prefill-map-regions"))
	require.NotEmpty(t, prefill)
	for _, r := range prefill {
		assert.False(t, r.Leaked || strings.Contains(r.Now, "read by"), "prefill reads no page it did not write: %+v", r)
	}
	assert.Contains(t, prefill[0].Now, "stale", "A's KV stays in prefill's pool")
	assert.Equal(t, 0, countAll(b, "#prefill-map-regions button"), "prefill's map zooms nothing")

	// A span's pages zoom the grid to it, as the map does.
	leaked := -1
	for i, r := range regions {
		if r.Leaked {
			leaked = i
			break
		}
	}
	require.GreaterOrEqual(t, leaked, 0)
	clickSel(b, fmt.Sprintf("#pool-map-regions li:nth-child(%d) .region-pages", leaked+1))
	first := regions[leaked].First
	waitFor(b, "the grid zoomed to the span", fmt.Sprintf(`(document.querySelector("#grid .cell") || {dataset: {}}).dataset.page?.split("-")[0] === "%d"`, first))
}

// A drag of the timeline moves the maps with it but leaves their spans'
// words as they were until it ends (web/pool/poolmap.go): a move rewrote
// the lists. It outlines no page of the grid either (model.Session.Grid).
// The drag's end (the slider's change) brings them to the step.
func TestADragKeepsTheMapsWordsUntilItEnds(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	waitFor(b, "the regions", `document.querySelectorAll("#pool-map-regions .region").length > 0`)
	words := func() string {
		return evalJS[string](b, `["pool-map", "prefill-map"].map(id => document.getElementById(id + "-figure").querySelector(".map-regions").innerText).join("\n--\n")`)
	}
	latest := words()
	b.Do(evalVoid(`(() => { const s = document.getElementById("scrubber"); s.value = 1; s.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	waitFor(b, "step 1", `document.querySelector("#step-pos").textContent.startsWith("Step 1 of")`)
	waitFrames(b, 2)
	assert.Equal(t, latest, words(), "dragged to step 1: the words stay")
	assert.Equal(t, []string{"none"}, cellMarks(b), "dragged: the grid's cells draw no marks (#grid.held)")
	// The step's outline waits too: the middle step releases a reservation
	// whose pages span hundreds of cells.
	b.Do(evalVoid(`(() => { const s = document.getElementById("scrubber"); s.value = Math.floor(s.max / 2); s.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	waitFor(b, "the middle step", `document.querySelector("#step-pos").textContent.startsWith("Step " + Math.floor(document.getElementById("scrubber").max / 2) + " of")`)
	waitFrames(b, 2)
	assert.Zero(t, countAll(b, "#grid .cell.touched"), "dragged: no page is outlined")
	assert.Contains(t, textOf(b, "#pool-decode"), "(pages it touched are outlined when the drag ends)")
	b.Do(evalVoid(`document.getElementById("scrubber").dispatchEvent(new Event("change", {bubbles: true}))`))
	waitFor(b, "the step's pages outlined", `document.querySelectorAll("#grid .cell.touched").length > 100`)
	assert.Contains(t, textOf(b, "#pool-decode"), "(pages it touched are outlined).")
	b.Do(evalVoid(`(() => { const s = document.getElementById("scrubber"); s.value = 1; s.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	waitFor(b, "step 1 again", `document.querySelector("#step-pos").textContent.startsWith("Step 1 of")`)
	b.Do(evalVoid(`document.getElementById("scrubber").dispatchEvent(new Event("change", {bubbles: true}))`))
	waitFor(b, "the words of step 1", fmt.Sprintf(`(() => { const w = ["pool-map", "prefill-map"].map(id => document.getElementById(id + "-figure").querySelector(".map-regions").innerText).join("\n--\n"); return w !== %q; })()`, latest))
	waitFor(b, "the marks drawn again", `!document.getElementById("grid").classList.contains("held")`)
	assert.NotContains(t, cellMarks(b), "none", "the drag ended: every cell draws its mark")
	last := evalJS[int](b, `Number(document.getElementById("scrubber").max)`)
	scrubTo(b, last)
	waitFor(b, "the latest step's words again", fmt.Sprintf(`["pool-map", "prefill-map"].map(id => document.getElementById(id + "-figure").querySelector(".map-regions").innerText).join("\n--\n") === %q`, latest))
}

// cellMarks is the distinct content of the grid's cells' marks (::before).
func cellMarks(b *browser) []string {
	b.t.Helper()
	return evalJS[[]string](b, `[...new Set([...document.querySelectorAll("#grid .cell")].map(c => getComputedStyle(c, "::before").content))]`)
}

// mapFreeJS is which scheme's free colour the map of canvas id is drawn
// in, read at its last pixel (app.css: --free; the decode pool ends in free
// pages at launch scale): "light", "dark" or what it found.
func mapFreeJS(id string) string {
	return fmt.Sprintf(`(() => {
		const c = document.getElementById(%q), d = c.getContext("2d").getImageData(c.width - 1, c.height - 1, 1, 1).data;
		const hex = [...d.slice(0, 3)].map(v => v.toString(16).padStart(2, "0")).join("");
		return {eef0f3: "light", "272a31": "dark"}[hex] || hex;
	})()`, id)
}

func mapFree(b *browser, id string) string {
	b.t.Helper()
	return evalJS[string](b, mapFreeJS(id))
}

// The maps are drawn in the page's colour scheme: the one a link forces,
// else the reader's, and again when the reader's changes while the page
// is open (web/dom/theme.go keeps one live list of it).
func TestPoolMapsFollowTheColourScheme(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	site := serveSite(t)
	b.Open(site + "?v=4&preset=glm-launch&theme=dark")
	mapOf(b, "pool-map")
	assert.Equal(t, "dark", mapFree(b, "pool-map"), "forced by the link")

	b.emulateMedia("prefers-color-scheme", "light")
	b.Open(site + "?v=4&preset=glm-launch")
	mapOf(b, "pool-map")
	assert.Equal(t, "light", mapFree(b, "pool-map"), "the reader's light scheme")
	b.emulateMedia("prefers-color-scheme", "dark")
	waitFor(b, "the map drawn again in the dark scheme", mapFreeJS("pool-map")+` === "dark"`)
	clickSel(b, "#step-back")
	waitFrames(b, 2)
	assert.Equal(t, "dark", mapFree(b, "pool-map"), "a step after the change draws in the reader's new scheme")
}
