package e2e

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
)

// TestSideBySide toggles the comparison of both doors, and opens it from a
// link with compare=1.
func TestSideBySide(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?" + demoQuery)
	s := waitShows(b, "the demo", expectAt(t, "demo", 0))
	assert.False(t, s.HasCompare, "no #compare until asked for")
	assert.Equal(t, "false", run(b, chromedp.Evaluate[string](`document.getElementById("compare-toggle").getAttribute("aria-pressed")`)))

	b.Do(chromedp.Click(chromedp.ID("compare-toggle")))
	s = waitView(b, "#compare", func(s pageView) bool { return s.HasCompare && s.Difference != "" })
	assert.Equal(t, demoDifference, s.Difference)
	assert.Equal(t, "?"+demoQuery+"&compare=1", s.Search, "compare=1 joins the link")
	assert.Equal(t, "true", run(b, chromedp.Evaluate[string](`document.getElementById("compare-toggle").getAttribute("aria-pressed")`)))
	sides := run(b, chromedp.Evaluate[[]map[string]string](`[...document.querySelectorAll("#compare .side")].map(e => ({
		mode: e.dataset.mode, status: e.querySelector(".side-status").textContent.trim(),
		verdict: e.querySelector(".side-verdict").textContent.trim()}))`))
	assert.Equal(t, []map[string]string{
		{"mode": "vulnerable", "status": "200", "verdict": demoVulnerableFinal},
		{"mode": "fixed", "status": "400", "verdict": demoFixedFinal},
	}, sides)

	b.Do(chromedp.Click(chromedp.ID("compare-toggle")))
	s = waitView(b, "#compare hidden", func(s pageView) bool { return !s.HasCompare })
	assert.Equal(t, "?"+demoQuery, s.Search)

	b.Open(site + "?" + demoQuery + "&compare=1")
	s = waitView(b, "#compare from the link", func(s pageView) bool { return s.Ready && s.HasCompare })
	assert.Equal(t, demoDifference, s.Difference)
	assert.Equal(t, "Hide the comparison", run(b, chromedp.Evaluate[string](`document.getElementById("compare-toggle").textContent.trim()`)))
}

// TestStepThrough walks the demo's log with the buttons and the keyboard,
// plays it, and pauses it.
func TestStepThrough(t *testing.T) {
	t.Parallel()
	site := serveTestHooks(t)
	b := newBrowser(t)
	p := mustPreset(t, "demo")
	latest := expectAt(t, p.Slug, 0)
	n := latest.Events
	at := func(step int) expectation { return expectAt(t, p.Slug, step) }
	stepLink := func(step int) string {
		if step == n {
			return "?" + demoQuery
		}
		return "?" + demoQuery + "&step=" + strconv.Itoa(step)
	}

	b.Open(site + "?" + demoQuery)
	waitShows(b, "the demo at its latest step", latest)

	// Tooltips and ARIA name the shortcut keys.
	tips := run(b, chromedp.Evaluate[map[string][]string](`Object.fromEntries(["step-back", "play", "step-next"].map(id => {
		const e = document.getElementById(id);
		return [id, [e.title, e.getAttribute("aria-keyshortcuts")]];
	}))`))
	assert.Equal(t, map[string][]string{
		"step-back": {"Step back (,)", ","},
		"play":      {"Play the log from this step (p)", "p"},
		"step-next": {"Step forward (.)", "."},
	}, tips)
	assert.True(t, run(b, chromedp.Evaluate[bool](`document.getElementById("step-next").disabled`)), "#step-next is disabled at the latest step")

	// Buttons.
	b.Do(chromedp.Click(chromedp.ID("step-back")))
	waitShows(b, "one step back", at(n-1))
	waitView(b, "the step in the link", func(s pageView) bool { return s.Search == stepLink(n-1) })
	b.Do(chromedp.Click(chromedp.ID("step-back")))
	waitShows(b, "two steps back", at(n-2))
	b.Do(chromedp.Click(chromedp.ID("step-next")))
	waitShows(b, "one step forward", at(n-1))

	// Keys, with the focus on the page rather than in a field.
	blurAll(b)
	b.Do(chromedp.KeyEvent(","))
	waitShows(b, "',' steps back", at(n-2))
	b.Do(chromedp.KeyEvent(","))
	waitShows(b, "',' steps back again", at(n-3))
	b.Do(chromedp.KeyEvent("."))
	s := waitShows(b, "'.' steps forward", at(n-2))
	assert.Equal(t, stepLink(n-2), s.Search)

	// A key typed into a field is text, not a shortcut: once the app has
	// settled, the key's effect would show.
	b.Do(chromedp.Click(chromedp.ID("secret")), chromedp.KeyEvent(","))
	settle(b)
	assertShowsNow(t, readView(b), "',' typed into #secret changes nothing", at(n-2))
	blurAll(b)

	// The player on virtual time: a step every 0.7 s, each state checked
	// midway between two ticks, so no state can be missed or overtaken.
	b.Do(chromedp.Click(chromedp.ID("step-back"))) // n-3
	waitShows(b, "back to n-3", at(n-3))
	blurAll(b)
	pauseVirtualTime(b)
	playing := func(want string, when string) {
		t.Helper()
		assert.Equal(t, want, readViewNow(b).Playing, "#play aria-pressed %s", when)
	}

	// Play (p) from n-3 to the end: it advances and stops by itself.
	b.Do(chromedp.KeyEvent("p"))
	advanceVirtualTime(b, 350)
	playing("true", "after p")
	assertShowsNow(t, readViewNow(b), "0.35 s into play", at(n-3))
	for i, step := range []int{n - 2, n - 1, n} {
		advanceVirtualTime(b, 700)
		assertShowsNow(t, readViewNow(b), fmt.Sprintf("%.2f s into play", 0.35+0.7*float64(i+1)), at(step))
	}
	advanceVirtualTime(b, 700)
	playing("false", "once play reached the end")
	assertShowsNow(t, readViewNow(b), "play stopped at the end", latest)

	// Play from the latest step replays from step 1; pause stops it.
	b.Do(evalVoid(`document.getElementById("play").click()`)) // chromedp.Click polls with page timers
	advanceVirtualTime(b, 350)
	playing("true", "after Play at the end")
	assertShowsNow(t, readViewNow(b), "replay starts at step 1", at(1))
	advanceVirtualTime(b, 700)
	assertShowsNow(t, readViewNow(b), "replay's next step", at(2))
	b.Do(evalVoid(`document.getElementById("play").click()`))
	advanceVirtualTime(b, 100)
	playing("false", "after Pause")
	assert.Equal(t, "Play", run(b, chromedp.Evaluate[string](`document.getElementById("play").textContent.trim()`)))
	advanceVirtualTime(b, 3000)
	assertShowsNow(t, readViewNow(b), "3 s after Pause", at(2))

	// p plays again and p pauses, from the keyboard.
	blurAll(b)
	b.Do(chromedp.KeyEvent("p"))
	advanceVirtualTime(b, 1050)
	playing("true", "after p")
	assertShowsNow(t, readViewNow(b), "1.05 s after p", at(3))
	b.Do(chromedp.KeyEvent("p"))
	advanceVirtualTime(b, 100)
	playing("false", "after p again")
	advanceVirtualTime(b, 3000)
	assertShowsNow(t, readViewNow(b), "3 s after p paused", at(3))
}

// TestReducedMotion asks for reduced motion: the page sees it, nothing
// animates, and stepping and playing still work.
func TestReducedMotion(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.emulateMedia("prefers-reduced-motion", "reduce")
	p := mustPreset(t, "demo")
	latest := expectAt(t, p.Slug, 0)

	b.Open(site + "?" + demoQuery)
	waitShows(b, "the demo", latest)
	assert.True(t, run(b, chromedp.Evaluate[bool](`matchMedia("(prefers-reduced-motion: reduce)").matches`)))

	noAnimations := func(when string) {
		t.Helper()
		running := run(b, chromedp.Evaluate[[]string](`document.getAnimations().map(a =>
			(a.constructor.name) + " " + (a.animationName || a.transitionProperty || "") + " on " +
			(a.effect && a.effect.target ? a.effect.target.id || a.effect.target.className : "?"))`))
		assert.Empty(t, running, "animations running %s", when)
	}
	noAnimations("at rest")

	b.Do(chromedp.Click(chromedp.ID("step-back")))
	waitShows(b, "a step back", expectAt(t, p.Slug, latest.Events-1))
	noAnimations("after a step")

	// Play from two steps back: it advances at the reduced pace, 1.5 s a
	// step, not 0.7 s. Virtual time makes that a count of steps.
	b.Do(chromedp.Click(chromedp.ID("step-back")))
	waitShows(b, "two steps back", expectAt(t, "demo", latest.Events-2))
	pauseVirtualTime(b)
	b.Do(evalVoid(`document.getElementById("play").click()`)) // no chromedp.Click: it polls with page timers
	advanceVirtualTime(b, 1000)
	s := readViewNow(b)
	assert.Equal(t, "true", s.Playing, "playing after the click")
	assertShowsNow(t, s, "1 s into play: still two steps back", expectAt(t, "demo", latest.Events-2))
	advanceVirtualTime(b, 1000)
	assertShowsNow(t, readViewNow(b), "2 s into play: one step on", expectAt(t, "demo", latest.Events-1))
	noAnimations("while playing")
	advanceVirtualTime(b, 3000)
	s = readViewNow(b)
	assertShowsNow(t, s, "5 s into play: the end", latest)
	assert.Equal(t, "false", s.Playing, "play stopped at the end")
}
