package e2e

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// logDOM is the log's blocks on the page; freshLog the same blocks as the
// prerender writes them, with the selected row (the test hooks' logHTML).
const (
	logDOM   = `document.getElementById("log").innerHTML`
	freshLog = `(() => { const t = document.createElement("template"); t.innerHTML = kvleakTest.logHTML(); return t.innerHTML; })()`
)

// In the browser the log's blocks are written without the selection, which
// is marked on the rows in the page (web/dom/log.go). Through scrubs,
// steps, a row's click, Sends and a preset, the log on the page is the one
// the prerender writes, and one row at most is selected; a row chosen from
// the keyboard keeps the focus.
func TestTheMarkedLogIsWhatThePrerenderWrites(t *testing.T) {
	t.Parallel()
	b := openTestHooks(t)
	check := func(what string) {
		t.Helper()
		waitLate(b)
		assert.Equal(t, evalJS[string](b, freshLog), evalJS[string](b, logDOM), "%s: the log at step %s", what, textOf(b, "#step-pos"))
		assert.LessOrEqual(t, evalJS[int](b, `document.querySelectorAll("#log .log-row.selected").length`), 1, what)
	}
	choosePreset(b, "demo")
	check("the demo at its latest step")
	for _, step := range []int{4, 17, 24, 11, 1} {
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

// Past the 300 listed rows, a Send that moves the log's window on keeps
// the elements of the blocks still listed (web/dom/log.go): go-app diffs
// the log's children by position, and with the oldest block always first
// every block took the next one's place and all 300 rows were parsed
// again. The log stays the one the prerender writes.
func TestTheLogKeepsItsBlocksAsItsWindowMoves(t *testing.T) {
	t.Parallel()
	site := serveTestHooks(t)
	b := newBrowser(t)
	// 10 prompts the API refuses (2 events each), then 40 that both
	// servers take (12 each): 500 events, past 300 rows, ending on a
	// block's end (so the first Send starts a block of its own, and the
	// window, which starts at event 200, moves on by a block); the last
	// request, the one the form holds, is one both servers take.
	var ops []engine.Op
	for range 10 {
		ops = append(ops, engine.Op{Send: &engine.Request{Tenant: "A", PromptTokens: 300, Content: "x"}})
	}
	for range 40 {
		ops = append(ops, engine.Op{Send: &engine.Request{Tenant: "A", PromptTokens: 3, Content: "x"}})
	}
	cfg := mustPreset(t, "demo").Config
	eng, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	n := eng.Log().Len()
	require.Zero(t, n%model.LogBlock, "%d events end on a block's end", n)
	require.NotZero(t, model.LogWindowStart(n)%(model.MaxLogRows/model.LogBlock*model.LogBlock), "the window has left blocks whose places are kept")
	perSend := 0 // the events of the last request, which each Send repeats
	for i := n - 1; i >= 0 && eng.Log().At(i).Request == eng.Log().At(n-1).Request; i-- {
		perSend++
	}
	require.Greater(t, model.LogWindowStart(n+perSend), model.LogWindowStart(n), "one Send of %d events moves the window on", perSend)
	b.Open(site + "?" + linkQuery("", cfg, ops))
	waitLate(b)
	listed := `[...document.querySelectorAll("#log .log-block:not([hidden])")]`
	assert.Greater(t, evalJS[int](b, `document.querySelectorAll("#log .log-block[hidden]").length`), 0,
		"the blocks the window left hold their places")
	firstListed := func() string { return evalJS[string](b, listed+`[0].getAttribute("start")`) }
	start := firstListed()
	evalJS[int](b, listed+`.map((el) => { el.kvleakKept = true; return 1 }).length`)
	steps := `document.getElementById("scrubber").max`
	for range 5 { // until the window moves on by a block
		before := evalJS[string](b, steps)
		clickSel(b, "#send") // the form holds the run's last request
		waitFor(b, "the Send's events", steps+` !== `+jsLit(before))
		waitLate(b)
		if firstListed() != start {
			break
		}
	}
	require.NotEqual(t, start, firstListed(), "the window moved on")
	kept := evalJS[[]bool](b, listed+`.slice(0, -1).map((el) => el.kvleakKept === true)`)
	require.NotEmpty(t, kept)
	for i, k := range kept {
		assert.True(t, k, "listed block %d (of %d before the newest) is the same element", i+1, len(kept))
	}
	assert.Equal(t, evalJS[string](b, freshLog), evalJS[string](b, logDOM), "the log is the prerender's")
	assert.LessOrEqual(t, evalJS[int](b, `document.querySelectorAll("#log .log-row").length`), 300)
}
