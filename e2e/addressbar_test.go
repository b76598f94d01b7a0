package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// addressBarWrites is what TestTheAddressBarIsWrittenAfterThePaint saw.
type addressBarWrites struct {
	Before       string `json:"before"`       // location.search before the clicks
	AfterClicks  string `json:"afterClicks"`  // straight after three clicks on Send
	AfterPaint   string `json:"afterPaint"`   // once the frame is painted
	Writes       int    `json:"writes"`       // replaceState calls for the three
	OnHide       string `json:"onHide"`       // after a fourth click and a pagehide
	HideWrites   int    `json:"hideWrites"`   // replaceState calls for the fourth
	SendsInQuery int    `json:"sendsInQuery"` // op=s in the final address bar
}

// TestTheAddressBarIsWrittenAfterThePaint: history.replaceState costs
// milliseconds of an action's task, so the app writes the address bar once
// the frame showing the change is painted, and only the last of the changes
// made before then (web/dom/addressbar.go). A pagehide writes a pending one at
// once, reading the state first if the change's paint has not come
// (catchUpURL). Writing it in the action, as before, fails the first and
// the third check; without the pagehide listener, or without reading the
// state first, the fourth and fifth fail.
func TestTheAddressBarIsWrittenAfterThePaint(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	resetRun(b)
	got := run(b, chromedp.Evaluate[addressBarWrites](`(async () => {
	  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
	  const ops = () => (location.search.match(/[?&]op=s,/g) || []).length;
	  let writes = 0;
	  const replace = history.replaceState;
	  history.replaceState = function (...args) { writes++; return replace.apply(this, args); };
	  const out = {before: location.search};
	  const send = document.getElementById("send");
	  await frame();
	  send.click(); send.click(); send.click();
	  out.afterClicks = location.search;
	  await frame();
	  out.afterPaint = location.search;
	  out.writes = writes;
	  writes = 0;
	  await frame(); await frame();
	  send.click();
	  window.dispatchEvent(new PageTransitionEvent("pagehide"));
	  out.onHide = location.search;
	  out.hideWrites = writes;
	  await frame();
	  out.sendsInQuery = ops();
	  history.replaceState = replace;
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	assert.Equal(t, got.Before, got.AfterClicks, "the address bar is not written in the clicks' task")
	assert.NotEqual(t, got.Before, got.AfterPaint, "it is written once the frame is painted")
	assert.Equal(t, 1, got.Writes, "once for the three clicks: the last state")
	assert.NotEqual(t, got.AfterPaint, got.OnHide, "a pagehide writes the pending state at once")
	assert.Equal(t, 1, got.HideWrites, "and the frame after it has nothing left to write")
	// The log is one of the panels that follow a change after its paint
	// (web/lateviews.go): read it once they have.
	waitLate(b)
	assert.Equal(t, 8, countAll(b, `#log li[data-stage="intake"]`), "four requests ran, each through both servers' intake")
	assert.Equal(t, 4, got.SendsInQuery, "and the address bar has all four")
}

// TestAHiddenPageWritesTheAddressBarAtOnce: a page behind another tab
// paints no frame, so waiting for one would leave its address bar behind
// (a link opened in a new tab hides the page): there the app writes it in
// the action itself.
func TestAHiddenPageWritesTheAddressBarAtOnce(t *testing.T) {
	t.Parallel()
	b := newWindowedBrowser(t)
	b.Open(serveSite(t))
	b.emulateFocus(false)
	b.Do(chromedp.Evaluate[chromedp.Void](`void window.open("about:blank", "_blank")`, func(p *runtime.EvaluateParams) { p.UserGesture = ptr(true) })) // a tab in front
	waitFor(b, "the playground's tab to be hidden", `document.hidden`)
	got := run(b, chromedp.Evaluate[[]string](`(() => {
	  const before = location.search;
	  document.getElementById("send").click();
	  return [before, location.search];
	})()`))
	if assert.Len(t, got, 2) {
		assert.NotEqual(t, got[0], got[1], "the hidden page's address bar has the new request when click() returns")
	}
}

// addressBarDrag is what TestADragWritesTheAddressBarWhenItEnds saw.
type addressBarDrag struct {
	Before       string `json:"before"`       // location.search before the drag
	DuringDrag   string `json:"duringDrag"`   // after ten moves, each painted
	DragWrites   int    `json:"dragWrites"`   // replaceState calls for them
	AfterEnd     string `json:"afterEnd"`     // once the drag's end (change) is painted
	EndWrites    int    `json:"endWrites"`    // replaceState calls for it
	AfterKey     string `json:"afterKey"`     // after a key's step (input and change)
	OnHide       string `json:"onHide"`       // after another move and a pagehide
	HideWrites   int    `json:"hideWrites"`   // replaceState calls for that
	StepOnHide   string `json:"stepOnHide"`   // the step shown then
	StepAtEnd    string `json:"stepAtEnd"`    // the step shown at the drag's end
	StepAfterKey string `json:"stepAfterKey"` // the step shown after the key
}

// TestADragWritesTheAddressBarWhenItEnds: a drag of the timeline moves the
// step once a frame, and history.replaceState after each paint took the
// next frame's time, so the address bar waits for the drag to end (the
// slider's change event), as it does for a pagehide (web/apply.go). A key
// on the slider fires both events and is written after its paint. Writing
// at every move, as before, fails the first two checks.
func TestADragWritesTheAddressBarWhenItEnds(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	choosePreset(b, "demo")
	waitLate(b)
	got := run(b, chromedp.Evaluate[addressBarDrag](`(async () => {
	  const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
	  const s = document.getElementById("scrubber");
	  const step = () => document.querySelector("#step-pos").textContent;
	  const move = (v, ...events) => { s.value = v; for (const e of events) s.dispatchEvent(new Event(e, {bubbles: true})); };
	  let writes = 0;
	  const replace = history.replaceState;
	  history.replaceState = function (...args) { writes++; return replace.apply(this, args); };
	  const out = {before: location.search};
	  for (let v = 2; v <= 11; v++) { move(v, "input"); await frame(); }
	  out.duringDrag = location.search;
	  out.dragWrites = writes;
	  writes = 0;
	  move(11, "change");
	  await frame();
	  out.afterEnd = location.search;
	  out.endWrites = writes;
	  out.stepAtEnd = step();
	  move(12, "input", "change");
	  await frame();
	  out.afterKey = location.search;
	  out.stepAfterKey = step();
	  writes = 0;
	  move(5, "input");
	  await frame();
	  window.dispatchEvent(new PageTransitionEvent("pagehide"));
	  out.onHide = location.search;
	  out.hideWrites = writes;
	  out.stepOnHide = step();
	  history.replaceState = replace;
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	assert.Equal(t, got.Before, got.DuringDrag, "the address bar is not written during the drag")
	assert.Zero(t, got.DragWrites, "nor is history")
	assert.Contains(t, got.AfterEnd, "step=11", "the drag's end writes its step (%s)", got.StepAtEnd)
	assert.Equal(t, 1, got.EndWrites, "once")
	assert.Contains(t, got.AfterKey, "step=12", "a key's step is written after its paint (%s)", got.StepAfterKey)
	assert.Contains(t, got.OnHide, "step=5", "a pagehide in a drag writes the step on screen (%s)", got.StepOnHide)
	assert.Equal(t, 1, got.HideWrites, "once")
}
