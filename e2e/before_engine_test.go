package e2e

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/server"
)

// The page before the engine runs (internal/sitegen/early.go, early.js):
// these tests hold app.wasm back in the server, so that the engine arrives
// only when the test lets it, as on a phone it arrives seconds after the
// page.

// startHeldSite serves build/site as serveSite does, answering app.wasm
// only once release is called.
func startHeldSite(t *testing.T) (url string, release func()) {
	t.Helper()
	dir, prefix := builtSite(t)
	h, err := server.New(server.Options{Dir: dir, Prefix: prefix})
	require.NoError(t, err)
	held := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(held) }) }
	ln := listenFresh(t)
	srv := server.NewHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/web/app.wasm") {
			select {
			case <-held:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}), server.Timeouts{})
	go srv.Serve(ln)
	t.Cleanup(func() {
		release()
		srv.Close()
	})
	return "http://" + ln.Addr().String() + prefix + "/", release
}

// openEarly opens the page at a phone's size with the engine held back,
// once the page is parsed.
func openEarly(t *testing.T, query string) (b *browser, release func()) {
	t.Helper()
	url, release := startHeldSite(t)
	b = newBrowser(t)
	b.Do(chromedp.EmulateViewport(360, 800))
	b.Do(chromedp.Navigate(url + query))
	waitFor(b, "the page parsed", `document.readyState !== "loading" && !!document.getElementById("early-states")`)
	require.Equal(t, "false", evalJS[string](b, `document.getElementById("playground").dataset.ready`), "the engine is held back")
	return b, release
}

// tapTimed clicks sel, waits for what, and reports how long that took.
func tapTimed(t *testing.T, b *browser, sel, what, js string) {
	t.Helper()
	start := time.Now()
	clickSel(b, sel)
	waitFor(b, what, js)
	t.Logf("%s → %s: %v", sel, what, time.Since(start).Round(time.Millisecond))
}

// tourPosIs is true once the tour's card says pos.
func tourPosIs(pos string) string {
	return `(document.getElementById("tour-pos") || {}).textContent === ` + jsLit(pos)
}

// pageShape is what the page shows, as text that two renders of one state
// share: each element's tag, attributes and trimmed text, in order. The
// prerendered page is go-app's HTML as the parser reads it, the app's page
// the DOM go-app builds: a form control's value, checked and selected are
// read as properties (go-app sets those, the HTML writes attributes), a
// boolean attribute as present, whitespace between elements is none, and
// data-ready, which says which of the two it is, is left out. Two
// differences the prerendered page has always had are read as the same:
// the grid's roving tabindex, which the app sets once it runs
// (web/dom/gridfocus.go), and an attribute's newline, which go-app's
// prerenderer writes as \n (a Go string literal).
const pageShape = `(() => {
  const props = ["value", "checked", "selected", "disabled", "open"];
  const shape = (n) => {
    if (n.nodeType === 3) { const t = n.textContent.replace(/\s+/g, " ").trim(); return t ? JSON.stringify(t) : ""; }
    if (n.nodeType !== 1) return "";
    const roving = n.parentElement && n.parentElement.closest("#grid");
    const attrs = [...n.attributes].filter((a) => a.name !== "data-ready" && !props.includes(a.name) && !(roving && a.name === "tabindex"))
      .map((a) => a.name + "=" + (a.value === "true" ? "" : a.value.replace(/\\n/g, "\n"))).sort();
    for (const p of props) if (p in n && n[p] !== "" && n[p] !== false && !(p === "value" && n.tagName === "BUTTON")) attrs.push(p + ":" + n[p]);
    return "<" + n.tagName + " " + attrs.join(" ") + ">\n" + [...n.childNodes].map(shape).filter(Boolean).join("\n") + "\n</" + n.tagName + ">";
  };
  return shape(document.getElementById("playground"));
})()`

// watchFrames notes, at each animation frame from now on, what the tour's
// card says ("" with no card), so that a frame the takeover painted in
// between shows.
const watchFrames = `(() => {
  window.__frames = [];
  const f = () => {
    const pos = document.getElementById("tour-pos");
    window.__frames.push(pos ? pos.textContent : "");
    requestAnimationFrame(f);
  };
  requestAnimationFrame(f);
})()`

// On a phone, before the engine arrives: Take the tour shows the first
// card with the demo's run at its step, Next the next card, and the page is
// axe clean; once the engine runs, the tour is still open at the same card,
// in the same place, with the same page under it, and no frame in between
// showed another; the tour then goes on with the engine.
func TestTheTourAnswersBeforeTheEngine(t *testing.T) {
	t.Parallel()
	b, release := openEarly(t, "")
	tapTimed(t, b, "#take-tour", "the first card", tourPosIs(tourWant[0].pos))
	assert.Equal(t, "tour", activeID(b), "the card has the focus")
	assert.Contains(t, textOf(b, "#step-pos"), "Step 7 of 24", "the run is at the card's step")
	assert.Equal(t, tourWant[0].stage, currentStage(b))
	tapTimed(t, b, "#tour-next", "the second card", tourPosIs(tourWant[1].pos))
	assert.Equal(t, tourWant[1].stage, currentStage(b))
	assert.Equal(t, "tour-next", activeID(b), "the focus stays on Next")
	assert.Equal(t, "false", evalJS[string](b, `document.getElementById("playground").dataset.ready`), "all of it before the engine")
	for _, v := range runAxe(b, axeSource(t)) {
		t.Errorf("axe, before the engine: %s", v)
	}

	before := evalJS[string](b, pageShape)
	scroll := evalJS[float64](b, `scrollY`)
	card := evalJS[[]float64](b, `(() => { const r = document.getElementById("tour").getBoundingClientRect(); return [r.top, r.left, r.height]; })()`)
	b.Do(evalVoid(watchFrames))
	start := time.Now()
	release()
	b.WaitReady()
	t.Logf("the engine ran %v after its release", time.Since(start).Round(time.Millisecond))
	waitFor(b, "frames after the takeover", `window.__frames.length > 10`)

	for i, f := range evalJS[[]string](b, `window.__frames`) {
		require.Equal(t, tourWant[1].pos, f, "frame %d after the release", i)
	}
	assert.Equal(t, before, evalJS[string](b, pageShape), "the app's page is the page the script showed")
	assert.Equal(t, scroll, evalJS[float64](b, `scrollY`), "the page did not scroll")
	assert.Equal(t, card, evalJS[[]float64](b, `(() => { const r = document.getElementById("tour").getBoundingClientRect(); return [r.top, r.left, r.height]; })()`))
	waitFor(b, "the focus in the app's card", `document.getElementById("tour").contains(document.activeElement)`)
	assert.Contains(t, addressQuery(b), "tour=2")
	assert.False(t, evalJS[bool](b, `!!document.getElementById("early-states")`), "the states are gone with the prerendered page")

	clickSel(b, "#tour-next")
	onCard(t, b, 3)
	pressKeys(b, kb.Escape)
	waitFor(b, "the tour closed", `document.getElementById("tour") === null`)
}

// ?tour=N opens card N before the engine, and Esc closes it there with the
// run left at the card's step, as the app does.
func TestALinkToACardOpensItBeforeTheEngine(t *testing.T) {
	t.Parallel()
	b, release := openEarly(t, "?tour=4")
	waitFor(b, "card 4", tourPosIs(tourWant[3].pos))
	pressKeys(b, kb.ArrowLeft)
	waitFor(b, "card 3 by the key", tourPosIs(tourWant[2].pos))
	pressKeys(b, kb.Escape)
	waitFor(b, "the tour closed", `document.getElementById("tour") === null`)
	assert.Contains(t, textOf(b, "#step-pos"), "Step 14 of 24", "the run stays at the card's step")
	assert.Equal(t, "take-tour", activeID(b), "the focus goes back to the tour's button")
	before := evalJS[string](b, pageShape)
	release()
	b.WaitReady()
	assert.Equal(t, before, evalJS[string](b, pageShape), "the app opens where the script left the page")
	assert.NotContains(t, addressQuery(b), "tour=")
}

// A tap the script cannot answer is kept: its control says it waits, with
// the download's progress, the page stays axe clean, and once the engine
// runs the app gets it, after the value picked before it.
func TestATapBeforeTheEngineIsKept(t *testing.T) {
	t.Parallel()
	b, release := openEarly(t, "")
	setField(b, "#preset", "symmetric")
	clickSel(b, "#send")
	assert.Equal(t, "true", evalJS[string](b, `document.getElementById("send").getAttribute("aria-busy")`), "Send says it waits")
	waitFor(b, "the badge's progress", `/\d+% · 2 actions wait for it/.test(document.getElementById("app-wasm-loader-label").textContent)`)
	waitFor(b, "the announcement", `/“Send” is kept/.test((document.querySelector("#app-wasm-loader [role=status]") || {}).textContent)`)
	assert.Equal(t, 0, countAll(b, "#tour"), "nothing answered it")
	for _, v := range runAxe(b, axeSource(t)) {
		t.Errorf("axe, a tap waiting: %s", v)
	}

	release()
	b.WaitReady()
	sym := mustPreset(t, "symmetric").Config
	require.Equal(t, sym.PoolTokens, sym.DecodePoolTokens, "the preset's pools are one size")
	waitFor(b, "the preset picked before the engine: decode's pool as prefill's", `document.getElementById("decode-pool").value === `+jsLit(strconv.Itoa(sym.DecodePoolTokens)))
	waitFor(b, "the kept Send's request, the third", `[...document.querySelectorAll("#log .log-req")].some((e) => e.textContent.startsWith("r3 "))`)
	assert.Equal(t, 0, countAll(b, ".early-wait"), "nothing waits any more")
}
