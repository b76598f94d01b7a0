package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// watchLoader runs before the page's own scripts: it notes every text the
// loader badge shows (a MutationObserver sees each rewrite) and, at each
// frame until the badge goes, whether its icon is animating.
const watchLoader = `window.__loader = { labels: [], animatedFrames: 0, frames: 0 };
new MutationObserver(() => {
  const l = document.getElementById("app-wasm-loader-label");
  const seen = window.__loader.labels;
  // Not while the parser has inserted the label but not yet its text
  // (it may yield between the two): that is no text the badge shows.
  if (l && l.textContent !== "" && seen[seen.length - 1] !== l.textContent) seen.push(l.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
const frame = () => {
  const icon = document.getElementById("app-wasm-loader-icon");
  if (!icon && document.readyState !== "loading") return;
  window.__loader.frames++;
  if (icon && icon.getAnimations().length) window.__loader.animatedFrames++;
  requestAnimationFrame(frame);
};
requestAnimationFrame(frame);`

// loaderWatch is what watchLoader noted.
type loaderWatch struct {
	Labels         []string `json:"labels"`
	AnimatedFrames int      `json:"animatedFrames"`
	Frames         int      `json:"frames"`
}

// TestTheLoaderIsStillWhileTheWasmLoads: while the wasm downloads, the
// badge neither counts percentages nor spins. Both used to cost the start-up
// they were reporting on: go-app's app.js piped every chunk through a
// JavaScript stream to rewrite the percentage (a repaint each frame), and
// the spinning logo made a compositor frame at every vsync
// (internal/sitegen's script edit wasm-compile, static/app.css).
func TestTheLoaderIsStillWhileTheWasmLoads(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.beforePageScripts(watchLoader)
	b.Open(site + "?" + demoQuery)

	seen := run(b, chromedp.Evaluate[loaderWatch](`window.__loader`))
	require.Positive(t, seen.Frames, "the watch saw the loading page")
	assert.Equal(t, []string{"Loading the playground…"}, seen.Labels, "the badge's texts while loading")
	assert.Zero(t, seen.AnimatedFrames, "frames in which the badge's icon was animating, of %d", seen.Frames)
	assert.False(t, run(b, chromedp.Evaluate[bool](`document.getElementById("app-wasm-loader") !== null`)),
		"the badge is gone once the app runs")
}

// watchStart runs before the page's own scripts: it counts the page's
// requests to compile a wasm and notes the document's readyState at the
// first.
const watchStart = `window.__start = { compileState: null, compiles: 0 };
const compileStreaming = WebAssembly.compileStreaming;
WebAssembly.compileStreaming = function (...args) {
  window.__start.compiles++;
  if (window.__start.compileState === null) window.__start.compileState = document.readyState;
  return compileStreaming.apply(this, args);
};`

// startWatch is what watchStart noted.
type startWatch struct {
	CompileState string `json:"compileState"`
	Compiles     int    `json:"compiles"`
}

// TestTheWasmCompilesWhileThePageIsParsed: the head's script hands the
// wasm to the compiler while the parser is still in the document, and
// app.js instantiates that module: one download, one compile, on the first
// visit and on a repeat visit through the service worker
// (internal/sitegen/preload.go, its script edit wasm-compile). With
// ?wasm=false, as for crawlers, nothing is compiled.
func TestTheWasmCompilesWhileThePageIsParsed(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.beforePageScripts(watchStart)
	wasmRequests := `performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/web/app.wasm")).length`
	compiled := `window.kvleakWasm.then((m) => m instanceof WebAssembly.Module)`

	b.Open(site + "?" + demoQuery)
	for i, visit := range []string{"first visit", "repeat visit"} {
		if i > 0 {
			b.Do(chromedp.Reload())
			b.WaitReady()
		}
		seen := run(b, chromedp.Evaluate[startWatch](`window.__start`))
		assert.Equal(t, "loading", seen.CompileState, "%s: the document's state when the compile began", visit)
		assert.Equal(t, 1, seen.Compiles, "%s: compiles asked for", visit)
		assert.True(t, run(b, chromedp.Evaluate[bool](compiled, chromedp.EvalAwaitPromise)),
			"%s: window.kvleakWasm holds the compiled module", visit)
		assert.Equal(t, 1, run(b, chromedp.Evaluate[int](wasmRequests)), "%s: requests for app.wasm", visit)
	}

	b.Do(chromedp.Navigate(site + "?wasm=false"))
	waitFor(b, "the page loaded without the loader", `document.readyState === "complete" && !document.getElementById("app-wasm-loader")`,
		within(readyTimeout))
	seen := run(b, chromedp.Evaluate[startWatch](`window.__start`))
	assert.Zero(t, seen.Compiles, "compiles asked for with ?wasm=false")
	assert.True(t, run(b, chromedp.Evaluate[bool](`window.kvleakWasm === null`)))
	assert.Equal(t, "false", run(b, chromedp.Evaluate[string](`document.getElementById("playground").dataset.ready`)),
		"the app did not start")
}

// beforePageScripts has every document the tab opens from now on run src
// before its own scripts.
func (b *browser) beforePageScripts(src string) {
	b.t.Helper()
	_, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: src})
	require.NoError(b.t, err)
}
