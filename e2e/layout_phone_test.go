package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a phone the run comes first — the verdict, the stepper, the pipeline,
// the pool — and the settings after it, on screen and in the document (so
// in the keyboard's and a screen reader's order too); the verdict is on the
// first screen.
func TestPhoneShowsTheRunFirst(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(360, 800))
	b.Open(serveSite(t) + "?" + demoQuery)
	waitFor(b, "the leak", `document.querySelector("#verdict").textContent.startsWith("LEAK")`)
	order := []string{"#verdict", "#stepper", "#pipeline-panel", "#pool-panel", "#settings-h", "#send"}
	type place struct {
		Top       float64 `json:"top"`
		Following bool    `json:"following"` // comes after the one before it in the document
	}
	places := evalJS[[]place](b, `(() => { const sels = `+mustJSON(order)+`; let prev = null;
		return sels.map(s => { const e = document.querySelector(s);
			const p = {top: e.getBoundingClientRect().top + scrollY, following: !prev || !!(prev.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING)};
			prev = e; return p; }); })()`)
	require.Len(t, places, len(order))
	for i := 1; i < len(order); i++ {
		assert.True(t, places[i].Following, "%s comes after %s in the document", order[i], order[i-1])
		assert.Greater(t, places[i].Top, places[i-1].Top, "%s is below %s on screen", order[i], order[i-1])
	}
	b.Do(evalVoid(`scrollTo(0, 0)`))
	v := stillRect(b, "#verdict")
	assert.LessOrEqual(t, v.Bottom, 800.0, "the verdict is on the first screen at 360×800: %s", v)
}

// On a phone the Prometheus text scrolls sideways inside its box, and no
// metric card is too narrow for what it says.
func TestPhoneKeepsMetricsInTheirBoxes(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(360, 800))
	b.Open(site + "?v=4&preset=demo")
	for i, preset := range []string{"demo", "glm-launch", "door-aborted", "scrub"} {
		if i > 0 {
			choosePreset(b, preset) // as a reader picks it: one load for the four
		}
		waitLate(b)
		b.Do(evalVoid(`document.getElementById("metrics-panel").scrollIntoView()`))
		stillRect(b, "#metrics")
		over := evalJS[[]string](b, `[...document.querySelectorAll("#metrics > div, #capacity")].filter(d =>
			[d, ...d.querySelectorAll("*")].some(e => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > d.getBoundingClientRect().right + 0.5)
		).map(d => d.dataset.metric || d.id)`)
		assert.Empty(t, over, "%s: metric cards whose text sticks out", preset)
	}
	b.Do(evalVoid(`document.getElementById("prometheus").scrollIntoView()`))
	stillRect(b, "#prometheus")
	type box struct {
		Client, Scroll int
		Right          float64
		Overflow       string
		Moved          bool
	}
	p := evalJS[box](b, `(() => { const e = document.getElementById("prometheus"); e.scrollLeft = 0; e.scrollLeft = 200;
		return {Client: e.clientWidth, Scroll: e.scrollWidth, Right: e.getBoundingClientRect().right, Overflow: getComputedStyle(e).overflowX, Moved: e.scrollLeft > 0}; })()`)
	assert.Greater(t, p.Scroll, p.Client, "the text is wider than a phone")
	assert.LessOrEqual(t, p.Right, 360.0, "its box fits the screen")
	assert.Contains(t, []string{"auto", "scroll"}, p.Overflow)
	assert.True(t, p.Moved, "and it scrolls sideways")
	assert.Equal(t, 0, evalJS[int](b, `document.getElementById("prometheus").tabIndex`), "from the keyboard too")
}
