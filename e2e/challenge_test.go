package e2e

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/challenge"
	"kvleak/engine"
)

// challengeStart is challenge n's starting settings' leak window, from the
// engine: the prompt lengths a solution may use.
func challengeFirst(t *testing.T, n int) int {
	t.Helper()
	c, err := challenge.Get(n)
	require.NoError(t, err)
	cfg, _, err := c.Start()
	require.NoError(t, err)
	require.True(t, cfg.Window().Open())
	return cfg.Window().First
}

// Challenge 1 solved through the request form: the panel says so, the
// status region announces it, the winning link and the next challenge are
// offered; after a reload the run still solves it, and the challenge
// opened afresh is still solved, from the progress kept in the browser.
func TestChallengeSolvedThroughTheFormAfterAReload(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	b.Open(site + "?challenge=1")
	waitFor(b, "challenge 1, unsolved", jsExists(`#challenge[data-n="1"][data-solved="false"]`))
	waitFor(b, "the ladder, none solved", jsExists(`#challenges[data-solved-count="0"]`))
	c, _ := challenge.Get(1)
	assert.Equal(t, c.Goal, textOf(b, "#challenge-goal"))

	first := challengeFirst(t, 1)
	sendRequest(b, "C", strconv.Itoa(first), "") // a near miss: C reads the flag, not B
	waitFor(b, "one try", `document.querySelector("#challenge-status").textContent.startsWith("Not solved yet")`)
	assert.Equal(t, "false", evalJS[string](b, `document.querySelector("#challenge").dataset.solved`))

	sendRequest(b, "B", strconv.Itoa(first), "")
	waitFor(b, "challenge 1 solved", jsExists(`#challenge[data-solved="true"][data-run-solves="true"]`))
	waitFor(b, "the status region to say so", `document.getElementById("announce").textContent.includes("Challenge 1 solved")`)
	assert.Contains(t, evalJS[string](b, `document.getElementById("challenge-link").getAttribute("href")`), "challenge=1")
	assert.True(t, evalJS[bool](b, jsExists("#challenge-next")), "the next challenge is offered")
	waitFor(b, "the ladder, one solved", jsExists(`#challenges[data-solved-count="1"] li[data-n="1"][data-solved="true"]`))

	waitFor(b, "the winning run in the address bar", `location.search.includes("op=s,B,") && location.search.includes("challenge=1")`)
	b.Do(chromedp.Reload())
	b.WaitReady()
	waitFor(b, "challenge 1 solved by the reloaded run", jsExists(`#challenge[data-solved="true"][data-run-solves="true"]`))
	waitFor(b, "the ladder, one solved, after a reload", jsExists(`#challenges[data-solved-count="1"]`))

	b.Open(site + "?challenge=1")
	waitFor(b, "challenge 1 on its start, solved before", jsExists(`#challenge[data-solved="true"][data-run-solves="false"]`))

	clickSel(b, "#challenge-next")
	waitFor(b, "challenge 2", jsExists(`#challenge[data-n="2"][data-solved="false"]`))
}

// The challenge panel passes axe at 1280 and 360 px: unsolved, solved
// (with its lesson, link and next), the question's answer buttons, and
// the embed of one challenge. In the playground axe looks at the panel
// (TestAccessibility looks at the page around it); the embed is a page of
// its own, looked at whole.
func TestChallengePanelAccessibility(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	site := serveSite(t)
	const panel = `{include: ["#challenge"]}`
	views := []struct{ name, query, axeContext string }{
		{"unsolved", "challenge=1", panel},
		{"solved", demoQuery + "&challenge=1", panel},
		{"embed", "challenge=2&embed=1&view=challenge", "document"},
	}
	for i, c := range challenge.Ladder() {
		if c.Question != "" { // its answer buttons
			views = append(views, struct{ name, query, axeContext string }{"question", "challenge=" + strconv.Itoa(i+1), panel})
		}
	}
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			b := newBrowser(t)
			b.Open(site + "?" + v.query)
			waitFor(b, "the challenge", jsExists("#challenge"))
			for _, width := range []int64{1280, 360} { // one page, both widths
				b.Do(chromedp.EmulateViewport(width, 800))
				waitFor(b, "the page at "+strconv.Itoa(int(width))+" px", "window.innerWidth === "+strconv.Itoa(int(width)))
				for _, viol := range runAxeIn(b, src, v.axeContext) {
					t.Errorf("axe at %d px: %s", width, viol)
				}
				right := evalJS[float64](b, `document.getElementById("challenge").getBoundingClientRect().right`)
				assert.LessOrEqual(t, right, float64(width), "the panel fits the screen at %d px", width)
			}
		})
	}
}

// The proof of challenge that asks a question, answered on the page: the
// probe through the form, the answer by its button, which keeps the focus
// when the panel's markup is new; Close takes the focus to the request
// form, and the ladder opens another challenge at its heading.
func TestChallengeProofAnsweredOnThePage(t *testing.T) {
	t.Parallel()
	n := 0
	for i, c := range challenge.Ladder() {
		if c.Question != "" {
			n = i + 1
		}
	}
	require.NotZero(t, n, "a challenge asks a question")
	c, _ := challenge.Get(n)
	cfg, _, err := c.Start()
	require.NoError(t, err)

	b := newBrowser(t)
	b.Open(serveSite(t) + "?challenge=" + strconv.Itoa(n))
	waitFor(b, "the question", jsExists("#challenge-answer-cannot"))
	sendRequest(b, "B", strconv.Itoa(cfg.LimitsOf(engine.ServerPrefill).MaxReqInputLen()), "")
	clickSel(b, "#challenge-answer-cannot")
	waitFor(b, "the proof accepted", jsExists(`#challenge[data-run-solves="true"] #challenge-answer-cannot[aria-pressed="true"]`))
	waitFor(b, "the focus kept on the answer", `document.activeElement.id === "challenge-answer-cannot"`)
	waitFor(b, "the status region to say so", `document.getElementById("announce").textContent.includes("solved")`)

	clickSel(b, "#challenge-close")
	waitFor(b, "the panel closed, the focus on the form", `!document.getElementById("challenge") && document.activeElement.id === "tenant"`)

	b.Do(evalVoid(`document.getElementById("ctf").open = true`))
	clickSel(b, `#challenges button[data-v="2"]`)
	waitFor(b, "challenge 2 at its heading", `document.querySelector("#challenge[data-n='2']") && document.activeElement.id === "challenge-h"`)
}
