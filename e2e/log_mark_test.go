package e2e

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
)

// logDOM is the log's blocks on the page; freshLog the same blocks as the
// prerender writes them, with the selected row (the test hooks' logHTML).
const (
	logDOM   = `document.getElementById("log").innerHTML`
	freshLog = `(() => { const t = document.createElement("template"); t.innerHTML = kvleakTest.logHTML(); return t.innerHTML; })()`
)

// In the browser the log's blocks are written without the selection, which
// is marked on the rows in the page (web/eventlog.go). Through scrubs,
// steps, a row's click, Sends and a preset, the log on the page is the one
// the prerender writes, and one row at most is selected; a row chosen from
// the keyboard keeps the focus.
func TestTheMarkedLogIsWhatThePrerenderWrites(t *testing.T) {
	b := openTestHooks(t)
	check := func(what string) {
		t.Helper()
		settled(b)
		assert.Equal(t, evalJS[string](b, freshLog), evalJS[string](b, logDOM), "%s: the log at step %s", what, textOf(b, "#step-pos"))
		assert.LessOrEqual(t, evalJS[int](b, `document.querySelectorAll("#log .log-row.selected").length`), 1, what)
	}
	choosePreset(b, "demo")
	check("the demo at its latest step")
	for _, step := range []int{3, 14, 20, 9, 1} {
		scrubTo(b, step)
		check("a scrub")
	}
	clickSel(b, "#step-back")
	check("Back")
	clickSel(b, `#log .log-btn[data-step="4"]`)
	check("a row's click")
	assert.Equal(t, "true", evalJS[string](b, `document.querySelector('#log .log-row[data-step="4"] .log-btn').getAttribute("aria-pressed")`))
	// Selecting from the keyboard keeps the focus on the row: it is the same
	// element (a replaced block dropped the focus to the page's body).
	evalJS[bool](b, `(() => { document.querySelector('#log .log-btn[data-step="6"]').focus(); return true })()`)
	pressKeys(b, kb.Enter)
	check("a row chosen with the keyboard")
	assert.Equal(t, "6", textOf(b, "#log .log-row.selected .log-step"))
	assert.Equal(t, "6", evalJS[string](b, `document.activeElement.dataset.step || "(focus lost to " + document.activeElement.tagName + ")"`), "the chosen row keeps the focus")
	sendRequest(b, "A", "300", "")
	check("a Send")
	scrubTo(b, 2)
	sendRequest(b, "B", "90", "")
	check("a Send from an earlier step")
	scrubTo(b, 5)
	check("a scrub after the Sends")
	clickSel(b, "#log-latest")
	check("back to the latest step")
	choosePreset(b, "glm-launch")
	scrubTo(b, 2)
	check("another preset")
}
