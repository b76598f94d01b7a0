package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// benchW and benchH are the desktop the bench is laid out for (issue 41).
const benchW, benchH = 1280, 800

// openBench opens the demo at 1280×800.
func openBench(t *testing.T) *browser {
	b := newBrowser(t)
	b.Do(chromedp.EmulateViewport(benchW, benchH))
	b.Open(serveSite(t) + "?" + demoQuery)
	waitFor(b, "the leak", `document.querySelector("#verdict").textContent.startsWith("LEAK")`)
	waitLate(b)
	return b
}

// At 1280×800 the request form stands beside its result: Send is within
// two screens of the top, and with Send on screen the response's status is
// on screen too, and so is the top of the pool.
func TestDesktopKeepsSendBesideItsResult(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	send := evalJS[float64](b, `document.getElementById("send").getBoundingClientRect().top + scrollY`)
	t.Logf("Send's top: %.0f px from the top of the page", send)
	assert.LessOrEqual(t, send, 1600.0, "Send within two screens")
	// Scroll so that Send sits at the foot of the screen.
	b.Do(evalVoid(`(() => { const r = document.getElementById("send").getBoundingClientRect();
		scrollTo(0, r.bottom + scrollY - innerHeight + 16); })()`))
	s, st, pool := stillRect(b, "#send"), stillRect(b, "#status"), stillRect(b, "#pool-panel")
	t.Logf("on one screen: #status %.0f–%.0f, Send %.0f–%.0f, pool from %.0f", st.Top, st.Bottom, s.Top, s.Bottom, pool.Top)
	for name, r := range map[string]rect{"Send": s, "#status": st} {
		assert.GreaterOrEqual(t, r.Top, 0.0, "%s on screen", name)
		assert.LessOrEqual(t, r.Bottom, float64(benchH), "%s on screen", name)
	}
	assert.Less(t, pool.Top, float64(benchH), "the pool begins on the same screen")
	assert.Less(t, evalJS[float64](b, `document.getElementById("tenant").getBoundingClientRect().top`), float64(benchH), "the tenant too")
}

// collapseSections folds every section below the bench.
func collapseSections(b *browser) int {
	return evalJS[int](b, `(() => { const s = [...document.querySelectorAll("details.section")]; s.forEach(d => d.open = false); return s.length; })()`)
}

// At 1280 px the page with every section folded is at most three screens.
func TestDesktopPageFoldsToThreeScreens(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	open := evalJS[float64](b, `document.documentElement.scrollHeight`)
	n := collapseSections(b)
	require.GreaterOrEqual(t, n, 9, "the sections")
	folded := evalJS[float64](b, `document.documentElement.scrollHeight`)
	t.Logf("page height at 1280 px: %.0f px with the sections open, %.0f px with them folded", open, folded)
	assert.LessOrEqual(t, folded, 3.0*benchH, "three screens")
}

// Each link at the top leads to its part of the page, a folded section
// opened, and takes the focus there; the address bar keeps the run's link.
func TestEverySectionIsReachableFromTheTop(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	want := []string{"bench", "settings", "door-section", "gateway-section", "launch", "metrics-panel", "prometheus-panel",
		"log-panel", "deploy", "ctf", "export-trace", "share", "timeline"}
	links := evalJS[[]string](b, `[...document.querySelectorAll("#jump a")].map(a => a.getAttribute("href").slice(1))`)
	assert.Subset(t, links, want, "a link to each part")
	url := evalJS[string](b, `location.href`)
	for _, id := range links {
		t.Run(id, func(t *testing.T) {
			withT(b, t)
			require.Equal(t, 1, countAll(b, "#"+id), "the link's target")
			collapseSections(b)
			b.Do(evalVoid(`scrollTo(0, 0)`))
			clickSel(b, `#jump a[href="#`+id+`"]`)
			waitFor(b, id+" on screen", `(() => { const e = document.getElementById(`+jsLit(id)+`), r = e.getBoundingClientRect();
				return e.checkVisibility() && r.top >= -1 && r.top < innerHeight - 40; })()`)
			assert.True(t, evalJS[bool](b, `(() => { const e = document.getElementById(`+jsLit(id)+`), a = document.activeElement;
				return e.contains(a) || a === e; })()`), "the focus follows: %s", activeID(b))
			assert.Equal(t, url, evalJS[string](b, `location.href`), "the address bar keeps the run")
		})
	}
}

// Each "why?" opens and closes from the keyboard, and until opened shows
// one line of its explanation.
func TestWhyDisclosuresWorkFromTheKeyboard(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	ids := evalJS[[]string](b, `[...document.querySelectorAll("details.why > .hint")].map(p => p.id)`)
	require.GreaterOrEqual(t, len(ids), 5, "the long explanations fold: %v", ids)
	assert.Contains(t, ids, "preset-desc")
	for _, id := range ids {
		why := `document.getElementById(` + jsLit(id) + `).closest("details")`
		assert.False(t, evalJS[bool](b, why+`.open`), "%s folded at first", id)
		line := evalJS[rect](b, `(() => { const r = `+why+`.querySelector(".why-line").getBoundingClientRect(); return {Top: r.top, Bottom: r.bottom}; })()`)
		assert.Less(t, line.Bottom-line.Top, 24.0, "%s: one line", id)
		b.Do(chromedp.Focus(chromedp.JSPath(why+`.querySelector("summary")`), chromedp.NodeVisible))
		assert.Contains(t, evalJS[string](b, `document.activeElement.textContent`), "why?")
		pressKeys(b, kb.Enter)
		waitFor(b, id+" open", why+`.open && document.getElementById(`+jsLit(id)+`).checkVisibility()`)
		b.Do(chromedp.KeyEvent(" "))
		waitFor(b, id+" folded again", `!`+why+`.open`)
	}
}

// The pipeline's router box says in words why it is struck through.
func TestRouterSaysWhyItIsStruckThrough(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	router := `#pipeline .stage[data-stage="router"]`
	assert.Equal(t, "never", evalJS[string](b, `document.querySelector(`+jsLit(router)+`).dataset.state`))
	assert.Equal(t, "Struck through: this box is the router's answer to a client abort (the “Router on client abort” setting), and this request's client did not cancel.",
		textOf(b, router+" .stage-why"))
	assert.True(t, evalJS[bool](b, `document.querySelector(`+jsLit(router+" .stage-why")+`).checkVisibility()`))
	assert.Contains(t, textOf(b, "#pipeline-legend"), "struck through", "and the legend beside it")
}
