package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// modelOf is the session the page opens from a link's query (without "?").
func modelOf(t *testing.T, query string) *model.Session {
	t.Helper()
	st, err := model.DecodeLink(query)
	require.NoError(t, err)
	s := model.NewSession()
	require.NoError(t, s.ApplyLink(st))
	return s
}

// The demo's link as schema v=3 wrote it (decode's pool 144 tokens, no
// prealloc budget, no clamp) opens, still leaks A's pages to B, and says
// that it was made with an earlier version and what changed (issue 48).
func TestVersion3DemoLinkStillLeaks(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + "?" + v3DemoQuery)
	want := modelOf(t, v3DemoQuery)
	s := waitView(b, "the v=3 demo's leak", func(s pageView) bool { return s.Ready && s.Verdict == demoLeakVerdict })
	assert.Equal(t, "200", s.Status)
	assert.False(t, s.HasBanner, "banner %q", s.Banner)
	notice := textOf(b, "#notice")
	assert.Equal(t, want.Notice(), notice)
	assert.True(t, strings.HasPrefix(notice, "This link (version 3) was made with an earlier version of the playground."), notice)
	assert.Contains(t, notice, "decode's pool is raised from 144 to "+engine.Thousands(int64(want.Config().DecodePoolTokens))+" tokens")
	assert.Equal(t, engine.Thousands(int64(want.Config().DecodePoolTokens)), valueOf(b, "#decode-pool"))
	assert.Equal(t, "0", valueOf(b, "#reserved-decode"))
	assert.Equal(t, "?"+v3DemoQuery, s.Search, "opening a link leaves it as it is")
}

// Decode's reserve is a setting: the decode.prealloc box shows
// pop_preallocated's check, bad input gets a message and changes nothing,
// and at SGLang's default the demo's requests wait in
// DecodePreallocQueue, which the line under Send says.
func TestDecodesReserveSetting(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	c := engine.DemoConfig()
	empty := engine.Budget{Available: c.PagesOf(engine.ServerDecode) * c.PageTokens}
	check := func(c engine.Config) engine.BudgetCheck {
		return empty.Check(engine.DemoPromptB, c.Admit(engine.DemoPromptB, 0).MaxNew, c.ReservedDecodeTokens, c.PageTokens)
	}
	const box = `#pipeline [data-stage="decode.prealloc"] .stage-budget`
	waitFor(b, "the demo's budget in decode.prealloc", `(document.querySelector(`+jsLit(box)+`) || {}).textContent === `+jsLit(check(c).String()))
	assert.Equal(t, engine.Thousands(int64(c.ReservedDecodeTokens)), valueOf(b, "#reserved-decode"))
	assert.Contains(t, textOf(b, "#reserved-decode-hint"), "SGLang's default is 512")

	before := readState(b)
	for _, bad := range []string{"-1", "lots"} {
		setField(b, "#reserved-decode", bad)
		waitFor(b, "#reserved-decode-error beside the field", fieldErrorShown("reserved-decode"))
		assertUnchanged(t, b, before, "after #reserved-decode = "+bad)
	}

	setField(b, "#reserved-decode", "512")
	waitFor(b, "the demo waits in DecodePreallocQueue", `document.querySelector("#status").textContent === "…"`)
	assert.Empty(t, gridCells(b, "[data-state=leaked]"), "nothing is preallocated, so nothing leaks")
	assert.Contains(t, textOf(b, "#send-result"), "waits in DecodePreallocQueue: behind r1")
	assert.Contains(t, evalJS[string](b, `location.search`), "&reserve=512&")

	// B alone meets the budget itself.
	clickSel(b, "#reset")
	setField(b, "#tenant", "B")
	setField(b, "#prompt-tokens", engine.Thousands(engine.DemoPromptB))
	clickSel(b, "#send")
	c.ReservedDecodeTokens = engine.DefaultReservedDecodeTokens
	words := "waits in DecodePreallocQueue: " + check(c).String()
	require.False(t, check(c).Fits())
	waitFor(b, "the line under Send", `document.querySelector("#send-result").textContent.includes(`+jsLit(words)+`)`)
	assert.Contains(t, words, "125 + 512 reserved > 160")
	assert.Equal(t, check(c).String(), textOf(b, box))
}
