package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tourCard is what one card of the tour shows, pinned by hand: its place,
// the demo's step it moves the run to, and the stage the pipeline marks.
type tourCard struct {
	pos, stage string
}

var tourWant = []tourCard{
	{"Tour · card 1 of 8 · step 7 of 24", "prefill.transfer"},
	{"Tour · card 2 of 8 · step 12 of 24", "release"},
	{"Tour · card 3 of 8 · step 14 of 24", "intake"},
	{"Tour · card 4 of 8 · step 15 of 24", "admission"},
	{"Tour · card 5 of 8 · step 19 of 24", "prefill.transfer"},
	{"Tour · card 6 of 8 · step 22 of 24", "decode.running"},
	{"Tour · card 7 of 8 · step 23 of 24", "response"},
	{"Tour · card 8 of 8 · step 24 of 24", "release"},
}

// onCard waits for card n (1-based) and checks the run is at its step,
// the pipeline marks its stage and the focus is in the card.
func onCard(t *testing.T, b *browser, n int) {
	t.Helper()
	want := tourWant[n-1]
	waitFor(b, want.pos, `document.querySelector("#tour-pos") !== null && document.querySelector("#tour-pos").textContent === `+jsLit(want.pos))
	step := strings.Fields(want.pos[strings.LastIndex(want.pos, "step "):])[1]
	waitFor(b, "step "+step, `document.querySelector("#step-pos").textContent.startsWith("Step `+step+` of")`)
	assert.Equal(t, want.stage, currentStage(b), "card %d marks its stage", n)
	assert.True(t, evalJS[bool](b, `document.getElementById("tour").contains(document.activeElement)`), "card %d has the focus", n)
	assert.Contains(t, addressQuery(b), "tour="+strings.Fields(want.pos)[3], "the URL follows the card")
}

// The tour by buttons and by keys, forward and back; Esc closes it and the
// focus goes back to where it was.
func TestTourWalksTheArgument(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	clickSel(b, "#take-tour")
	onCard(t, b, 1)
	assert.Equal(t, "polite", evalJS[string](b, `document.getElementById("tour-text").getAttribute("aria-live")`), "the card's text is announced")
	assert.True(t, evalJS[bool](b, `document.getElementById("tour-prev").disabled`))
	for n := 2; n <= 4; n++ {
		clickSel(b, "#tour-next")
		onCard(t, b, n)
	}
	clickSel(b, "#tour-prev")
	onCard(t, b, 3)
	pressKeys(b, kb.ArrowRight)
	onCard(t, b, 4)
	for n := 5; n <= 8; n++ {
		pressKeys(b, kb.ArrowRight)
		onCard(t, b, n)
	}
	pressKeys(b, kb.ArrowLeft)
	onCard(t, b, 7)
	assert.Equal(t, "200", textOf(b, "#status"), "HTTP 200 with A's pages")

	pressKeys(b, kb.Escape)
	waitFor(b, "the tour closed", `document.getElementById("tour") === null`)
	assert.Equal(t, "take-tour", activeID(b), "the focus is back on the button that opened it")
	assert.NotContains(t, addressQuery(b), "tour=")
}

// ?tour=3 opens the tour at that card; the last card's fixes work on the
// live engine. A card past the last is refused in words (web/model
// TestBadViewKeysAreRefusedInWords), with the banner of TestHostileLinks.
func TestTourOpensFromTheLinkAndTriesTheFix(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	site := serveSite(t)
	b.Open(site + "?tour=3")
	onCard(t, b, 3)
	assert.Equal(t, "intake", evalJS[string](b, `document.getElementById("playground").dataset.tourSpot`), "card 3 highlights each server's intake")

	b.Open(site + "?tour=8")
	onCard(t, b, 8)
	clickSel(b, "#tour-fix-door")
	waitFor(b, "the fixed door's 400", `document.querySelector("#status").textContent === "400"`)
	assert.Equal(t, "fixed", valueOf(b, "#mode"))
	clickSel(b, "#tour-prev")
	onCard(t, b, 7)
	assert.Equal(t, "200", textOf(b, "#status"), "back on the demo's run")
	clickSel(b, "#tour-next")
	onCard(t, b, 8)
	clickSel(b, "#tour-fix-pool")
	waitFor(b, "B fits", `document.querySelector("#pool").value === "144"`)
	assert.Equal(t, "200", textOf(b, "#status"))
	assert.NotContains(t, textOf(b, "#verdict"), "LEAK")
}

// The tour at a phone's width and under reduced motion, and axe on it.
func TestTourOnAPhoneIsAccessible(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(360, 740))
	b.Open(serveSite(t) + "?tour=4")
	onCard(t, b, 4)
	r := evalJS[[]float64](b, `(() => { const r = document.getElementById("tour").getBoundingClientRect(); return [r.left, r.right, r.bottom, innerHeight]; })()`)
	require.Len(t, r, 4)
	assert.GreaterOrEqual(t, r[0], 0.0)
	assert.LessOrEqual(t, r[1], 360.0, "the card fits the width")
	assert.LessOrEqual(t, r[2], r[3], "the card is on screen")
	assertFitsWidth(t, b, 360)
	violations := runAxe(b, axeSource(t))
	for _, v := range violations {
		t.Errorf("axe: %s", v)
	}
}
