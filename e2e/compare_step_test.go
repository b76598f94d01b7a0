package e2e

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSideBySide toggles the comparison of both doors, and opens it from a
// link with compare=1.
func TestSideBySide(t *testing.T) {
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
	site := serveSite(t)
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

	// A key typed into a field is text, not a shortcut.
	b.Do(chromedp.Click(chromedp.ID("secret")), chromedp.KeyEvent(","))
	assertStays(b, at(n-2).StepPos, 500*time.Millisecond)
	blurAll(b)

	// Play from step 1 (p) to the end: it advances and stops by itself.
	b.Do(chromedp.Click(chromedp.ID("step-back"))) // n-3
	waitShows(b, "back to n-3", at(n-3))
	blurAll(b)
	b.Do(chromedp.KeyEvent("p"))
	waitView(b, "playing", func(s pageView) bool { return s.Playing == "true" })
	waitShows(b, "play advanced a step", at(n-2))
	waitShows(b, "play reached the end", latest)
	waitView(b, "play stopped at the end", func(s pageView) bool { return s.Playing == "false" })

	// Play from the latest step replays from step 1; pause stops it.
	b.Do(chromedp.Click(chromedp.ID("play")))
	waitView(b, "replay from the start", func(s pageView) bool { return s.Playing == "true" })
	waitView(b, "play past step 2", func(s pageView) bool { return stepOf(s.StepPos) >= 3 })
	b.Do(chromedp.Click(chromedp.ID("play")))
	paused := waitView(b, "paused", func(s pageView) bool { return s.Playing == "false" })
	assert.Equal(t, "Play", run(b, chromedp.Evaluate[string](`document.getElementById("play").textContent.trim()`)))
	assertStays(b, paused.StepPos, 2*time.Second)

	// p plays again and p pauses, from the keyboard.
	blurAll(b)
	b.Do(chromedp.KeyEvent("p"))
	waitView(b, "playing again after p", func(s pageView) bool { return stepOf(s.StepPos) > stepOf(paused.StepPos) })
	b.Do(chromedp.KeyEvent("p"))
	paused = waitView(b, "paused by p", func(s pageView) bool { return s.Playing == "false" })
	assertStays(b, paused.StepPos, 2*time.Second)
}

// stepOf reads N from "Step N of M".
func stepOf(pos string) int {
	var n, m int
	if _, err := fmt.Sscanf(pos, "Step %d of %d", &n, &m); err != nil {
		return -1
	}
	return n
}

// assertStays checks that #step-pos keeps its text for d: a paused player
// does not advance (its pace is at most 1.5 s a step).
func assertStays(b *browser, pos string, d time.Duration) {
	b.t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if got := readView(b).StepPos; got != pos {
			b.t.Fatalf("#step-pos moved from %q to %q while paused", pos, got)
		}
	}
}

// TestReducedMotion asks for reduced motion: the page sees it, nothing
// animates, and stepping and playing still work.
func TestReducedMotion(t *testing.T) {
	site := serveSite(t)
	b := newBrowser(t)
	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	})
	require.NoError(t, err)
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

	// Play from two steps back: it advances at the slower, reduced pace.
	b.Do(chromedp.Click(chromedp.ID("step-back")))
	waitShows(b, "two steps back", expectAt(t, p.Slug, latest.Events-2))
	start := time.Now()
	b.Do(chromedp.Click(chromedp.ID("play")))
	waitShows(b, "play advances under reduced motion", expectAt(t, p.Slug, latest.Events-1))
	pace := time.Since(start)
	noAnimations("while playing")
	assert.GreaterOrEqual(t, pace, 1200*time.Millisecond, "a step under reduced motion takes the slower pace (1.5 s, not 0.7 s)")
	waitShows(b, "play reaches the end", latest)
	waitView(b, "play stopped at the end", func(s pageView) bool { return s.Playing == "false" })
}
