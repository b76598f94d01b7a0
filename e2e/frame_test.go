package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestAClickRendersBeforeItReturns holds the wasm's one scheduling edit to
// go-app (internal/goappslim/edits.go): a click's render runs as soon as
// go-app's dispatch queue drains, inside the click's own task, instead of on
// a ticker 8.3 ms later. So the page has changed by the time click()
// returns to the script that called it. Pristine go-app fails this on most
// clicks (the log and the step counter are still the old ones: its render
// comes 25-35 ms later); it renders at once only when its ticker happens to
// be due.
func TestAClickRendersBeforeItReturns(t *testing.T) {
	b := openPlayground(t)
	got := run(b, chromedp.Evaluate[[][]string](`(async () => {
	  const rows = () => String(document.querySelectorAll("#log li[data-step]").length);
	  const pos = () => document.querySelector("#step-pos").textContent;
	  const out = [];
	  for (let k = 0; k < 5; k++) {
	    // Quiet frames and a pause first: a click within 8.3 ms of the last
	    // render waits for the ticker, by design.
	    for (let i = 0; i < 2; i++) await new Promise(r => requestAnimationFrame(r));
	    await new Promise(r => setTimeout(r, 50));
	    const before = [rows(), pos()];
	    document.getElementById("send").click();
	    out.push([...before, rows(), pos()]);
	  }
	  return out;
	})()`, chromedp.EvalAwaitPromise))
	assert.Len(t, got, 5)
	for i, c := range got {
		if assert.Len(t, c, 4) {
			assert.NotEqual(t, c[0], c[2], "click %d: the log has the new request's events when click() returns", i+1)
			assert.NotEqual(t, c[1], c[3], "click %d: the step counter has moved when click() returns", i+1)
		}
	}
}
