package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// marksDOM is the scrubber's marks on the page, freshMarks the same list as
// a fresh render writes it (the test hooks' marksHTML, web/dom/marks.go),
// both as the browser serializes them, without the list's generation.
const (
	marksDOM   = `(() => { const ol = document.querySelector("#step-timeline ol.marks")?.cloneNode(true); ol?.removeAttribute("data-gen"); return ol?.outerHTML ?? ""; })()`
	freshMarks = `(() => { const t = document.createElement("template"); t.innerHTML = kvleakTest.marksHTML(); return t.content.firstChild.outerHTML; })()`
)

// The scrubber's marks are patched in place when a change only adds marks
// (web/dom/marks.go). Through Sends, steps, scrubs, a reset and presets,
// the list on the page is the one a fresh render writes, and a Send keeps
// the marks' elements.
func TestThePatchedMarksAreWhatAFreshRenderWrites(t *testing.T) {
	t.Parallel()
	b := openTestHooks(t)
	check := func(what string) {
		t.Helper()
		waitLate(b)
		assert.Equal(t, evalJS[string](b, freshMarks), evalJS[string](b, marksDOM), "%s: the marks at step %s", what, textOf(b, "#step-pos"))
	}
	choosePreset(b, "demo")
	check("the demo")
	b.Do(chromedp.Evaluate[chromedp.Void](`window.firstMark = document.querySelector("#step-timeline ol.marks li"); void 0`))
	for i, tenant := range []string{"A", "B", "C"} {
		sendRequest(b, tenant, "90", "")
		check("Send " + string(rune('1'+i)))
	}
	assert.True(t, evalJS[bool](b, `window.firstMark.isConnected`), "the Sends kept the first mark's element")
	// The demo's list again, right after patches: the string go-app holds is
	// the demo's, so a list that were the same string would leave the
	// patched one on the page.
	choosePreset(b, "demo")
	check("the demo after Sends")
	scrubTo(b, 3)
	check("a scrub")
	clickSel(b, "#step-back")
	check("Back")
	sendRequest(b, "A", "300", "")
	check("a Send after a scrub")
	// Fewer marks, then the first list again: a list go-app holds must not
	// show the marks patched into it.
	choosePreset(b, "late-write")
	check("another preset")
	choosePreset(b, "demo")
	check("the demo again")
	sendRequest(b, "B", "90", "")
	check("a Send on the demo again")
	clickSel(b, "#reset")
	waitLate(b)
	assert.Empty(t, evalJS[string](b, marksDOM), "a reset run has no marks")
	sendRequest(b, "C", "90", "")
	check("a Send after the reset")

	// A long run: its marks grouped by percent, and a Send regroups them.
	var ops []engine.Op
	for i := range 250 {
		prompt := 100
		if i%37 == 5 {
			prompt = engine.DemoPromptB // in the demo's window: a leak
		}
		ops = append(ops, engine.SendOp(engine.Request{Tenant: string(rune('A' + i%2)), PromptTokens: prompt, Content: "long run"}))
	}
	b.Do(chromedp.SetUploadFiles(chromedp.ID("import"), []string{writeRunFile(t, engine.DemoConfig(), ops)}))
	waitFor(b, "the long run imported", `document.querySelector("#share-msg")?.textContent === "Loaded a run of 250 operations."`)
	check("a long run")
	items := `document.querySelectorAll("#step-timeline ol.marks li").length`
	assert.LessOrEqual(t, evalJS[int](b, items), 202, "one item per row and percent")
	leaks := 0
	for _, r := range replayed(t, engine.DemoConfig(), ops).Responses() {
		if r.Leaked() {
			leaks++
		}
	}
	require.Equal(t, 7, leaks, "the engine's run: one leak in 37 requests")
	assert.Equal(t, leaks, evalJS[int](b, `document.querySelectorAll("#step-timeline ol.marks li.mark-leak").length`), "the run's seven leaks, each in its own percent")
	b.Do(chromedp.Evaluate[chromedp.Void](`window.firstMark = document.querySelector("#step-timeline ol.marks li"); void 0`))
	for i := range 3 {
		// The log lists a window of the run's rows: wait for the step instead.
		pos := textOf(b, "#step-pos")
		clickSel(b, "#send")
		waitFor(b, "the Send's events", `document.querySelector("#step-pos").textContent !== `+jsLit(pos))
		check("a Send on the long run " + string(rune('1'+i)))
	}
	assert.False(t, evalJS[bool](b, `window.firstMark.isConnected`), "a Send that regroups most of the long run's marks renders the list again (maxPatchCalls)")
}
