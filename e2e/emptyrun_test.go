package e2e

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// Every control and shortcut on a run with nothing in it, and with one
// request, leaves the page alive: Reset then Play once killed the wasm
// (index out of range), and every click after it threw.
func TestEveryControlOnAnEmptyRun(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	resetRun(b)
	pressKeys(b, "p")
	pressKeys(b, ".")
	pressKeys(b, ",")
	assert.True(t, evalJS[bool](b, `document.getElementById("play").disabled`), "nothing to play")
	assert.True(t, evalJS[bool](b, `document.getElementById("scrubber").disabled`), "nothing to scrub")
	for _, id := range []string{"#step-back", "#step-next", "#compare-toggle", "#table-toggle", "#table-toggle", "#copy-link", "#embed", "#export", "#compare-toggle"} {
		b.Do(evalVoid(`document.querySelector(` + jsLit(id) + `).click()`))
	}
	settle(b)
	assert.Equal(t, 0, countAll(b, "#crash"), "no panic, not even a contained one")
	assert.Equal(t, "Step 0 of 0", textOf(b, "#step-pos"))
	assert.Equal(t, "—", textOf(b, "#status"))

	// Alive: a request goes through, and with one on the log the keys step.
	sendRequest(b, "A", "3", "alive")
	assert.Equal(t, "200", textOf(b, "#status"))
	pressKeys(b, kb.ArrowLeft) // not a shortcut outside the tour: nothing
	pressKeys(b, ",")
	waitFor(b, "one step back", `!document.querySelector("#step-pos").textContent.startsWith("Step 10 of")`)
	pressKeys(b, "p")
	waitFor(b, "playing", `document.querySelector("#play").getAttribute("aria-pressed") === "true"`)
	pressKeys(b, "p")
	waitFor(b, "paused", `document.querySelector("#play").getAttribute("aria-pressed") === "false"`)
}

// The same in a read-only embed of an empty run, where only the keys and
// the replay button are left.
func TestKeysInAReadOnlyEmbedOfAnEmptyRun(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + "?v=4&ctx=256&pool=128&dpool=160&page=16&reserve=32&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&embed=1&ro=1")
	pressKeys(b, "p")
	pressKeys(b, ".")
	assert.True(t, evalJS[bool](b, `document.getElementById("embed-replay").disabled`))
	clickSel(b, "#embed-fixed")
	waitFor(b, "the fixed door chosen", `document.querySelector("#embed-fixed").getAttribute("aria-pressed") === "true"`)
	assert.Equal(t, 0, countAll(b, "#crash"))
	assert.Equal(t, 0, countAll(b, "#embed-settings"), "read-only: no settings")
}
