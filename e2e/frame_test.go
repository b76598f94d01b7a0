package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestAClickRendersBeforeItReturns holds the wasm's one scheduling edit to
// go-app (patches/goapp/render-at-once.patch): a click's render runs as soon as
// go-app's dispatch queue drains, inside the click's own task, instead of on
// the next tick of go-app's 120 Hz ticker. So the page has changed by the time
// click() returns to the script that called it. Pristine go-app fails this on
// most clicks (the scrubber and the step counter are still the old ones: its
// render comes a tick or more later); it renders at once only when its ticker
// happens to be due. (The log follows after the paint:
// TestTheLowerPanelsFollowAfterThePaint.) The clicks come after quiet frames
// and a pause, then one frame apart, as the bench's do: that click lands a few
// milliseconds after the page's own render of the lower panels, which with a
// tick's gap required between renders made it wait for the ticker.
func TestAClickRendersBeforeItReturns(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	got := run(b, chromedp.Evaluate[[][]string](`(async () => {
	  const rows = () => document.querySelector("#scrubber").max;
	  const pos = () => document.querySelector("#step-pos").textContent;
	  const frame = () => new Promise(r => requestAnimationFrame(r));
	  const out = [];
	  for (let k = 0; k < 10; k++) {
	    if (k < 5) {
	      for (let i = 0; i < 2; i++) await frame();
	      await new Promise(r => setTimeout(r, 50));
	    } else {
	      await frame();
	    }
	    const before = [rows(), pos()];
	    document.getElementById("send").click();
	    out.push([...before, rows(), pos()]);
	    await frame(); // the frame that paints it; the lower panels follow
	  }
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	assert.Len(t, got, 10)
	for i, c := range got {
		if assert.Len(t, c, 4) {
			assert.NotEqual(t, c[0], c[2], "click %d: the scrubber has the new request's events when click() returns", i+1)
			assert.NotEqual(t, c[1], c[3], "click %d: the step counter has moved when click() returns", i+1)
		}
	}
}

// TestAClickRightAfterARenderRendersAtOnce: the second of two clicks in one
// script lands microseconds after the first one's render, as a click does
// in a frame that was held up behind the page's own long render and runs
// its callbacks right after it (what a loaded CI machine saw in
// TestAClickRendersBeforeItReturns). It still renders in its own task; only
// a render right after a render right after a render waits for the ticker.
func TestAClickRightAfterARenderRendersAtOnce(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	got := run(b, chromedp.Evaluate[[][]string](`(async () => {
	  const look = () => [document.querySelector("#scrubber").max, document.querySelector("#step-pos").textContent];
	  const frame = () => new Promise(r => requestAnimationFrame(r));
	  const out = [];
	  for (const id of ["send", "step-back"]) {
	    for (let i = 0; i < 2; i++) await frame();
	    await new Promise(r => setTimeout(r, 50));
	    const seen = [look()];
	    for (let i = 0; i < 2; i++) {
	      document.getElementById(id).click();
	      seen.push(look());
	    }
	    out.push(seen.flat());
	  }
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	if !assert.Len(t, got, 2) {
		return
	}
	send, back := got[0], got[1]
	if assert.Len(t, send, 6) {
		assert.NotEqual(t, send[0], send[2], "the first Send's events are on the scrubber when click() returns")
		assert.NotEqual(t, send[2], send[4], "so are the second's, right after the first's render")
		assert.NotEqual(t, send[3], send[5], "the step counter moved on the second Send")
	}
	if assert.Len(t, back, 6) {
		assert.NotEqual(t, back[1], back[3], "the first Back moved the step counter")
		assert.NotEqual(t, back[3], back[5], "so did the second, right after the first's render")
	}
}

// TestTheLowerPanelsFollowAfterThePaint holds the page's one priority
// (web/lateviews.go): a Send renders the step counter, the scrubber and the
// verdict in the click's own task and the log, the metrics and the share
// links once that frame is painted, with #playground[data-late] in between.
// A Back does the same for the log's selected row. Without the hold, the
// log has changed when click() returns.
func TestTheLowerPanelsFollowAfterThePaint(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	type seen struct {
		Held, Pos, Rows, Selected, Metrics string
		Frames                             int // until the lower panels followed
	}
	got := run(b, chromedp.Evaluate[[][]seen](`(async () => {
	  const frame = () => new Promise(r => requestAnimationFrame(r));
	  const look = () => ({
	    held: document.querySelector("#playground").dataset.late ?? "",
	    pos: document.querySelector("#step-pos").textContent,
	    rows: String(document.querySelectorAll("#log li[data-step]").length),
	    selected: document.querySelector("#log li.selected")?.dataset.step ?? "",
	    metrics: document.querySelector("#metrics").textContent,
	  });
	  const out = [];
	  for (const id of ["send", "send", "step-back", "step-back"]) {
	    for (let i = 0; i < 2; i++) await frame();
	    await new Promise(r => setTimeout(r, 50));
	    const before = look();
	    document.getElementById(id).click();
	    const clicked = look();
	    let frames = 0;
	    while (document.querySelector("#playground[data-late]") && frames < 30) { await frame(); frames++; }
	    await new Promise(r => setTimeout(r, 0));
	    out.push([before, clicked, look(), {frames}]);
	  }
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	if !assert.Len(t, got, 4) {
		return
	}
	for i, c := range got {
		before, clicked, after, frames := c[0], c[1], c[2], c[3].Frames
		assert.Empty(t, before.Held, "action %d: nothing lags before it", i+1)
		assert.NotEqual(t, before.Pos, clicked.Pos, "action %d: the step counter moved in the click's task", i+1)
		assert.Equal(t, "held", clicked.Held, "action %d: the lower panels are held while the frame paints", i+1)
		assert.Equal(t, before.Rows, clicked.Rows, "action %d: the log is the old one until the paint", i+1)
		assert.Equal(t, before.Selected, clicked.Selected, "action %d: so is its selected row", i+1)
		assert.Empty(t, after.Held, "action %d: the lower panels caught up (after %d frames)", i+1, frames)
		if i < 2 { // a Send
			assert.NotEqual(t, before.Rows, after.Rows, "send %d: the log has the new events", i+1)
			assert.NotEqual(t, before.Metrics, after.Metrics, "send %d: the metrics counted it", i+1)
		} else {
			assert.NotEqual(t, before.Selected, after.Selected, "back %d: the log selects the step", i+1)
		}
	}
}

// TestAHiddenPageShowsTheLowerPanelsAtOnce: a page behind another tab
// paints no frame, so its lower panels would wait for one that never comes
// (web/lateviews.go); there they change in the action itself.
func TestAHiddenPageShowsTheLowerPanelsAtOnce(t *testing.T) {
	t.Parallel()
	b := newWindowedBrowser(t)
	b.Open(serveSite(t))
	b.emulateFocus(false)
	b.Do(chromedp.Evaluate[chromedp.Void](`void window.open("about:blank", "_blank")`, func(p *runtime.EvaluateParams) { p.UserGesture = ptr(true) })) // a tab in front
	waitFor(b, "the playground's tab to be hidden", `document.hidden`)
	got := run(b, chromedp.Evaluate[[]string](`(() => {
	  const rows = () => String(document.querySelectorAll("#log li[data-step]").length);
	  const before = rows();
	  document.getElementById("send").click();
	  return [before, rows(), document.querySelector("#playground").dataset.late ?? ""];
	})()`))
	if assert.Len(t, got, 3) {
		assert.NotEqual(t, got[0], got[1], "the log has the new events when click() returns")
		assert.Empty(t, got[2], "nothing is held")
	}
}
