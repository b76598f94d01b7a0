package e2e

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tourSpotParts are the parts of the page a card may outline as the one
// it talks about (which depends on the card and the screen's width).
var tourSpotParts = []string{"#pipeline-panel", "#pool-panel", ".response", "#grid", "#pipeline-intake-row", "#pipeline-door-row", "#verdict"}

// rect is an element's box in the viewport, CSS pixels.
type rect struct {
	Top, Bottom, Left, Right float64
}

func (r rect) String() string {
	return fmt.Sprintf("[top %.0f bottom %.0f left %.0f right %.0f]", r.Top, r.Bottom, r.Left, r.Right)
}

func (r rect) intersects(o rect) bool {
	return r.Left < o.Right && o.Left < r.Right && r.Top < o.Bottom && o.Top < r.Bottom
}

// stillRect waits until the element sel finds keeps the same box for three
// frames in a row (a smooth scroll has ended) and returns that box.
func stillRect(b *browser, sel string) rect {
	b.t.Helper()
	r := run(b, chromedp.Evaluate[*rect](`(async () => {
		const frame = () => new Promise(r => requestAnimationFrame(r));
		let last = "", same = 0, box = null;
		for (let i = 0; i < 300 && same < 3; i++) {
			await frame();
			const e = document.querySelector(`+jsLit(sel)+`);
			if (!e) { same = 0; continue; }
			const r = e.getBoundingClientRect();
			box = {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
			const key = JSON.stringify(box) + scrollY;
			same = key === last ? same + 1 : 0;
			last = key;
		}
		return box;
	})()`, chromedp.EvalAwaitPromise))
	if r == nil {
		b.t.Fatalf("no element matches %s", sel)
	}
	return *r
}

// spotOf is the selector of the part the open card outlines.
func spotOf(t *testing.T, b *browser) string {
	t.Helper()
	outlined := evalJS[[]string](b, mustJSON(tourSpotParts)+`.filter(sel => { const e = document.querySelector(sel);
		if (!e) return false; const st = getComputedStyle(e); return st.outlineStyle === "solid" && st.outlineWidth === "4px"; })`)
	require.Len(t, outlined, 1, "the card outlines one part of the page (data-tour-spot=%q)", evalJS[string](b, `document.getElementById("playground").dataset.tourSpot || ""`))
	return outlined[0]
}

// Each card scrolls so that the part of the page it talks about is on
// screen in full, beside or above the card and never under it: at a
// desktop's width and at a phone's.
func TestTourCardShowsWhatItTalksAbout(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	for _, w := range []int64{1280, 360} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			t.Parallel()
			b := newBrowser(t)
			b.Do(chromedp.EmulateViewport(w, 800))
			b.Open(site + "?tour=1")
			for n := 1; n <= 8; n++ {
				if n > 1 {
					pressKeys(b, kb.ArrowRight)
				}
				waitFor(b, fmt.Sprintf("card %d", n), `(document.querySelector("#tour-pos") || {}).textContent?.includes("card `+fmt.Sprint(n)+` of 8")`)
				sel := spotOf(t, b)
				spot, card := stillRect(b, sel), stillRect(b, "#tour")
				assert.True(t, spot.Top >= 0 && spot.Bottom <= 800 && spot.Left >= 0 && spot.Right <= float64(w),
					"card %d at %dpx: %s %s is not on screen in full", n, w, sel, spot)
				assert.False(t, spot.intersects(card), "card %d at %dpx: the card %s covers %s %s", n, w, card, sel, spot)
			}
		})
	}
}

// Under prefers-reduced-motion a card jumps to its part of the page: the
// page scrolls once, with no frames in between.
func TestTourScrollsWithoutMotionWhenAskedTo(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.emulateMedia("prefers-reduced-motion", "reduce")
	b.Do(chromedp.EmulateViewport(1280, 800))
	b.Open(serveSite(t) + "?tour=2")
	waitFor(b, "card 2", `(document.querySelector("#tour-pos") || {}).textContent?.includes("card 2 of 8")`)
	stillRect(b, spotOf(t, b))
	b.Do(evalVoid(`window.kvleakScrolls = []; addEventListener("scroll", () => kvleakScrolls.push(scrollY))`))
	pressKeys(b, kb.ArrowRight)
	waitFor(b, "card 3", `document.querySelector("#tour-pos").textContent.includes("card 3 of 8")`)
	stillRect(b, spotOf(t, b))
	scrolls := evalJS[[]float64](b, `kvleakScrolls`)
	require.NotEmpty(t, scrolls, "card 3 scrolls to its part of the page")
	for _, y := range scrolls {
		assert.Equal(t, scrolls[len(scrolls)-1], y, "one jump, no smooth scroll: %v", scrolls)
	}
}

var stepText = regexp.MustCompile(`(?i)step (\d+) of (\d+)`)

// stepOf is "N of M" as an element's text says it ("Step 11 of 24").
func stepOf(t *testing.T, b *browser, sel string) string {
	t.Helper()
	m := stepText.FindStringSubmatch(textOf(b, sel))
	if m == nil {
		return "(no step in " + sel + ": " + textOf(b, sel) + ")"
	}
	return m[1] + " of " + m[2]
}

// The card and the stepper say the same step: as a card opens, when the
// reader steps away from it (the card says so), and after the last card's
// fix has changed the run. The last card is reached with Next, as a reader
// reaches it: its fix buttons then take the places of the card before's
// buttons, and a click on one ran the handler that had been there
// (patches/goapp/latest-handler.patch).
func TestTourAndStepperAgree(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?tour=3")
	waitFor(b, "card 3", `(document.querySelector("#tour-pos") || {}).textContent?.includes("card 3 of 8")`)
	assert.Equal(t, stepOf(t, b, "#step-pos"), stepOf(t, b, "#tour-pos"), "card 3 opens at the stepper's step")
	assert.Equal(t, 0, countAll(b, "#tour-away"), "at the card's own step nothing says the reader left it")
	cardStep := stepOf(t, b, "#tour-pos")

	pressKeys(b, ".") // the stepper's Next, while the card is open
	waitFor(b, "the next step", `!document.querySelector("#step-pos").textContent.includes("Step `+strings.Fields(cardStep)[0]+` of")`)
	waitFor(b, "the card to follow", `(document.querySelector("#tour-pos") || {}).textContent?.toLowerCase().includes(`+jsLit(strings.ToLower(textOf(b, "#step-pos")))+`)`)
	assert.Equal(t, stepOf(t, b, "#step-pos"), stepOf(t, b, "#tour-pos"))
	waitFor(b, "the line that says the reader left the card's step", jsExists("#tour-away"))
	assert.Contains(t, textOf(b, "#tour-away"), "step "+strings.Fields(cardStep)[0], "it names the card's own step")
	clickPath(b, `document.querySelector("#tour-away button")`)
	waitFor(b, "back at the card's step", `document.querySelector("#step-pos").textContent.includes("Step `+strings.Fields(cardStep)[0]+` of")`)
	waitFor(b, "the line gone", `document.querySelector("#tour-away") === null`)

	for card := 4; card <= 8; card++ { // card 8's link opens as card 3's does
		clickSel(b, "#tour-next")
		waitFor(b, "card "+strconv.Itoa(card), `(document.querySelector("#tour-pos") || {}).textContent?.includes("card `+strconv.Itoa(card)+` of 8")`)
	}
	assert.Equal(t, stepOf(t, b, "#step-pos"), stepOf(t, b, "#tour-pos"), "card 8 shows at the stepper's step")
	b.Do(evalVoid(`document.getElementById("tour-fix-door").click()`))
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	waitFor(b, "the card at the fixed run's step", `(document.querySelector("#tour-pos") || {}).textContent?.toLowerCase().includes(`+jsLit(strings.ToLower(textOf(b, "#step-pos")))+`)`)
	assert.Equal(t, stepOf(t, b, "#step-pos"), stepOf(t, b, "#tour-pos"), "after the fix, card and stepper agree")
}

// A card that puts the demo back over the reader's own change says so, in
// a line that is shown and announced.
func TestTourSaysWhenItPutsTheDemoBack(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + "?tour=4")
	waitFor(b, "card 4", `(document.querySelector("#tour-pos") || {}).textContent?.includes("card 4 of 8")`)
	assert.Equal(t, 0, countAll(b, "#tour-reset"), "nothing to say before the reader changed anything")
	setField(b, "#mode", "fixed")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	b.Do(evalVoid(`document.getElementById("tour-next").click()`))
	waitFor(b, "card 5", `document.querySelector("#tour-pos").textContent.includes("card 5 of 8")`)
	waitFor(b, "the demo back", `document.querySelector("#mode").value === "vulnerable"`)
	waitFor(b, "the line that says so", jsExists("#tour-reset"))
	line := textOf(b, "#tour-reset")
	assert.Contains(t, line, "admission mode", "it names what it undid")
	assert.Contains(t, line, "fixed", "and the reader's value")
	assert.True(t, evalJS[bool](b, `(() => { const e = document.getElementById("tour-reset"), r = e.getBoundingClientRect();
		return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility === "visible"; })()`), "the line is shown")
	assert.True(t, evalJS[bool](b, `!!document.getElementById("tour-reset").closest('[role=status], [aria-live=polite], [aria-live=assertive]')`), "and announced")
}

// mustJSON is v as a JavaScript literal.
func mustJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(data)
}
