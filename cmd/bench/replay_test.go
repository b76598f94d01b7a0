package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// replayPage is the Replay panel as replay.js sees it: a sample named in
// the source line a moment after it is picked, a result whose data says
// what the replay took a moment after the press (?renamed: with the slice
// under another name).
const replayPage = `<!doctype html><title>t</title>
<select id="replay-sample"><option value="">none</option><option value="s">s</option></select>
<p id="replay-source">the pasted log</p>
<button id="replay-run">Replay</button>
<div id="replay-result" data-done="false"></div>
<script>
const renamed = new URLSearchParams(location.search).has("renamed");
const result = document.getElementById("replay-result");
let run = 0;
document.getElementById("replay-sample").onchange = () =>
  setTimeout(() => { document.getElementById("replay-source").textContent = "Sample S"; }, 50);
document.getElementById("replay-run").onclick = () => {
  result.dataset.done = "false";
  setTimeout(() => {
    Object.assign(result.dataset, { done: "true", run: ++run, elapsedMs: 1234 });
    result.dataset[renamed ? "longestSlice" : "longestSliceMs"] = 56;
  }, 100);
};
</script>`

// replay.js returns the panel's own figures, and an error, not a zero,
// when one is missing.
func TestReplayReadsThePanelsFigures(t *testing.T) {
	ctx, b, open := pageInBrowser(t, replayPage)

	open("")
	got, err := b.replay(ctx, "s", "Sample S")
	require.NoError(t, err)
	assert.Equal(t, replayTiming{ElapsedMs: 1234, LongestSliceMs: 56}, got)

	open("?renamed")
	_, err = b.replay(ctx, "s", "Sample S")
	assert.ErrorContains(t, err, "longestSliceMs")
}
