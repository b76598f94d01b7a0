package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// afterPaintPage is a page whose Send changes #playground in the click's
// task and then, as the playground does (web/dom/afterpaint.go), asks for a
// frame in which it sets a timeout for more work after the paint; that
// work notes when it started. With no after-paint work, the change is
// made only in a task after the next frame.
const afterPaintPage = `<!doctype html><title>t</title>
<main id="playground"><button id="send">Send</button><p id="out">0</p></main>
<script>
const late = new URLSearchParams(location.search).has("late");
window.afterAt = [];
document.getElementById("send").onclick = () => {
  const out = document.getElementById("out");
  if (late) { // the change itself waits for a frame
    requestAnimationFrame(() => setTimeout(() => { out.textContent = +out.textContent + 1; }, 0));
    return;
  }
  out.textContent = +out.textContent + 1;
  requestAnimationFrame(() => setTimeout(() => {
    window.afterAt.push(performance.now());
    const end = performance.now() + 30;
    while (performance.now() < end) {} // 30 ms of the page's own work
  }, 0));
};
</script>`

// TestActTimesThePaintNotThePagesLaterWork: act.js stamps "painted" when
// the action's own frame has drawn a change made during the action, before
// the next frame and the page's after-paint work; and when the change comes
// after the first frame, it times the frame after the change.
func TestActTimesThePaintNotThePagesLaterWork(t *testing.T) {
	ctx, b, open := pageInBrowser(t, afterPaintPage)

	open("")
	isolated, err := call[bool](ctx, b, stepTimeout, `() => window.crossOriginIsolated`)
	require.NoError(t, err)
	require.True(t, isolated, "the page's clock is fine-grained only when cross-origin isolated")
	got, err := b.act(ctx, "send", 5, 2)
	require.NoError(t, err)
	afterAt, err := call[[]float64](ctx, b, stepTimeout, `() => window.afterAt`)
	require.NoError(t, err)
	require.Len(t, afterAt, 5, "the page's after-paint work ran once a send")
	for i, g := range got {
		assert.LessOrEqual(t, g.DOM, g.Frame, "send %d: the frame comes after the change", i+1)
		// The change, made in the action's own frame, is painted by it,
		// before the next frame begins.
		assert.Less(t, g.Painted, g.Frame, "send %d: painted by the action's frame", i+1)
		// Even at 5 µs the two stamps may be equal.
		assert.LessOrEqual(t, g.At+g.Painted, afterAt[i], "send %d: painted is stamped before the page's later work starts", i+1)
	}

	open("?late")
	got, err = b.act(ctx, "send", 3, 2)
	require.NoError(t, err)
	for i, g := range got {
		assert.Less(t, g.DOM, g.Frame, "late send %d: the frame timed is one after the change", i+1)
		assert.Less(t, g.Frame, g.Painted, "late send %d", i+1)
	}
}
