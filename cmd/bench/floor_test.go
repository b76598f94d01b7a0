package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/benchkit"
)

// A stand-in for go-app's smallest page: #send is in the HTML from the
// start, before the loader (as go-app writes it), but the page is
// interactive only once the loader is gone, 300 ms in; a click adds text to
// the body (no #playground).
const floorLikePage = `<!doctype html><title>t</title><body>
<button id="send">Send</button>
<script>/* a microtask checkpoint: observers see #send before the loader */</script>
<aside id="app-wasm-loader">loading</aside>
<script>
setTimeout(() => document.getElementById("app-wasm-loader").remove(), 300);
document.getElementById("send").onclick = () => document.body.append(" clicked");
</script></body>`

func TestMeasureFloorWaitsForTheLoaderAndTimesClicks(t *testing.T) {
	exe := chromiumForTest(t)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(floorLikePage), 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	r, err := measureFloor(ctx, exe, dir, 3)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, r.Load.Times.Ready, 300.0, "ready only once the loader is gone")
	assert.Greater(t, r.Load.Times.FCP, 0.0)
	require.Len(t, r.Send, 3)
	for _, s := range r.Send {
		assert.Greater(t, s.Painted, 0.0)
	}
	assert.Greater(t, r.Renderer.Largest, 0.0)
	assert.NotEmpty(t, r.Load.Requests)
}

func TestCheckFloorNamesWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	err := checkFloor(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reference page plain is missing")
	for _, name := range floorPages {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, name), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name, "index.html"), nil, 0o644))
	}
	assert.NoError(t, checkFloor(dir))
}

// The ratio is of one run's own figures; a run without the reference
// pages has none.
func TestInteractiveRatioIsPerRun(t *testing.T) {
	rep := &report{Metrics: map[string]benchkit.Series{}, MemSends: 1000, secs: sections(1000)}
	with := func(playground, goapp float64) runResult {
		r := runResult{Repeat: visit{Times: notLoaded}}
		r.Loopback.Times.Ready = playground
		r.Floor = map[string]floorResult{"goapp": {Load: visit{Times: loadTimes{Ready: goapp}}}}
		return r
	}
	rep.aggregate([]runResult{with(1000, 500), with(900, 600), with(1200, 400)})
	assert.Equal(t, 2.0, rep.value("interactive_over_goapp"), "the median of 2, 1.5 and 3")
	rep.aggregate([]runResult{{Repeat: visit{Times: notLoaded}}})
	assert.True(t, math.IsNaN(rep.value("interactive_over_goapp")))
}
