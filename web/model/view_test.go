package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
)

func TestViewKeysRoundTrip(t *testing.T) {
	for _, v := range []View{
		{}, {Compare: true}, {Embed: true, ReadOnly: true, Panel: "pool", Theme: "dark"},
		{Embed: true, Panel: "transcript", Theme: "light"}, {Tour: 3}, {Embed: true, Panel: "challenge", Challenge: 2},
	} {
		s := NewSession()
		s.SetView(v)
		st, err := DecodeLink(s.AddressQuery())
		require.NoError(t, err, "%+v", v)
		assert.Equal(t, v, st.View)
	}
	st, err := DecodeLink("tour=2&theme=dark")
	assert.ErrorIs(t, err, permalink.ErrNoState, "view keys alone open the default run")
	assert.Equal(t, View{Tour: 2, Theme: "dark"}, st.View)
}

// ro=1 makes only an embed read-only: a full playground opened with it
// keeps its controls (e2e TestEmbedMode opens the read-only embed), and its
// address bar drops the key.
func TestReadOnlyNeedsTheEmbed(t *testing.T) {
	for raw, want := range map[string]bool{"ro=1": false, "embed=1&ro=1": true, "embed=1": false} {
		l, err := DecodeLink("v=" + permalink.Version + "&preset=demo&" + raw)
		require.NoError(t, err, raw)
		s := NewSession()
		s.SetView(l.View)
		assert.Equal(t, want, s.View().ReadOnly, raw)
		assert.Equal(t, want, strings.Contains(s.AddressQuery(), "ro=1"), "%s: %s", raw, s.AddressQuery())
	}
}

func TestBadViewKeysAreRefusedInWords(t *testing.T) {
	for raw, msg := range map[string]string{
		"view=everything": `parameter view="everything": must be one of [pipeline pool compare transcript challenge]`,
		"theme=sepia":     `parameter theme="sepia": must be light or dark`,
		"tour=0":          `parameter tour="0": the tour has cards 1 to 8`,
		"tour=9":          `parameter tour="9": the tour has cards 1 to 8`,
		"embed=yes":       `parameter embed="yes": must be 0 or 1`,
		"challenge=0":     `parameter challenge="0": the ladder has challenges 1 to 8`,
		"challenge=x":     `parameter challenge="x": the ladder has challenges 1 to 8`,
	} {
		_, err := DecodeLink(raw)
		require.Error(t, err, raw)
		assert.NotErrorIs(t, err, permalink.ErrNoState, raw)
		assert.Equal(t, msg, err.Error(), raw)
	}
}

// The tour walks the demo's run: each card at the step of the event it
// talks about — on two servers, the intake card at decode's intake (which
// admits what prefill rejected) and the release cards at decode's release.
func TestTourCardsFollowTheDemo(t *testing.T) {
	cards := TourCards()
	require.Len(t, cards, 8)
	steps := make([]int, len(cards))
	stages := make([]engine.Stage, len(cards))
	for i, c := range cards {
		steps[i], stages[i] = c.Step, c.Stage
	}
	assert.Equal(t, []int{7, 12, 14, 15, 19, 22, 23, 24}, steps)
	assert.Equal(t, []engine.Stage{"prefill.transfer", "release", "intake", "admission", "prefill.transfer", "decode.running", "response", "release"}, stages)

	p, _ := engine.PresetBySlug("demo")
	e, err := engine.Replay(p.Config, p.Ops)
	require.NoError(t, err)
	for i, c := range cards {
		ev := e.Log().At(c.Step - 1)
		assert.Equal(t, c.Stage, ev.Stage, "card %d", i+1)
		assert.Equal(t, map[bool]int{true: 1, false: 2}[i < 2], ev.Request, "card %d: A's cards, then B's", i+1)
	}
	at := func(card int) *engine.Event { return e.Log().At(cards[card-1].Step - 1) }
	assert.Equal(t, engine.HalfDecode, at(3).Half, "the intake card shows decode's verdict")
	assert.Equal(t, engine.HalfDecode, at(2).Half, "A's pages freed on decode")
	assert.Equal(t, engine.ServerDecode, at(2).Pool)
	assert.Equal(t, engine.HalfDecode, at(8).Half)
	assert.Equal(t, engine.ServerDecode, at(8).Pool)
	assert.Equal(t, engine.ServerDecode, at(1).Pool, "send_kv_chunk writes into decode's pool")

	c, b := p.Config, e.Responses()[1]
	assert.Contains(t, cards[2].Text, fmt.Sprintf("Tenant B sends %d tokens: under the %d-token context", engine.DemoPromptB, c.ContextTokens))
	assert.Contains(t, cards[2].Text, fmt.Sprintf("Prefill's max_req_input_len is %d", c.LimitsOf(engine.ServerPrefill).MaxReqInputLen()))
	assert.Contains(t, cards[2].Text, fmt.Sprintf("Decode's pool is larger (%d): it admits the prompt as it is.", c.LimitsOf(engine.ServerDecode).MaxReqInputLen()))
	assert.Contains(t, cards[4].Text, fmt.Sprintf("Decode reserved %d pages for the %d tokens it admitted and set kv_committed_len to %d.", c.ReservedPages(engine.DemoPromptB), engine.DemoPromptB, engine.DemoPromptB))
	assert.Contains(t, cards[5].Text, fmt.Sprintf("decode attends over %d positions — %d of B's, %d of A's stale KV, %d never written.", b.Committed, b.OwnTokens, b.ForeignTokens, b.EmptyTokens))
	assert.Contains(t, cards[0].Text, "Tenant A sends a 120-token prompt")
	assert.True(t, cards[7].Fix)
}

func TestTourMovesTheDemoRunAndComesBackToIt(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	glm := s.cfg
	require.NoError(t, s.TourTo(4))
	assert.Equal(t, "demo", s.Preset(), "the tour runs on the demo")
	card := TourCards()[3]
	assert.Equal(t, card.Step, s.Step())
	assert.Equal(t, engine.StageAdmission, s.Pipeline().Stage)
	v := s.Tour()
	demo := engine.DemoConfig()
	th := func(n int) string { return engine.Thousands(int64(n)) }
	assert.Equal(t, TourView{Open: true, N: 4, Of: 8, Card: card, Step: card.Step, Steps: s.eng.Log().Len(),
		Reset: "The tour runs on the article's demo, so it put the demo back: context length (tokens) " + th(glm.ContextTokens) + " → " + th(demo.ContextTokens) +
			"; prefill KV pool (tokens) " + th(glm.PoolTokens) + " → " + th(demo.PoolTokens) +
			"; decode KV pool (tokens) " + th(glm.DecodePoolTokens) + " → " + th(demo.DecodePoolTokens) + "; page size (tokens) " + th(glm.PageTokens) + " → " + th(demo.PageTokens) +
			"; decode's reserved tokens " + th(glm.ReservedDecodeTokens) + " → " + th(demo.ReservedDecodeTokens) + "; your 4 requests → the demo's 2."}, v)

	require.NoError(t, s.TourTo(8))
	assert.Empty(t, s.Tour().Reset, "a card that undid nothing says nothing")
	assert.False(t, s.Tour().Away)
	require.NoError(t, s.SetMode(engine.Fixed))
	v = s.Tour()
	assert.True(t, v.Changed, "the reader tried the fix")
	assert.Equal(t, [2]int{16, 16}, [2]int{v.Step, v.Steps}, "the card reads the fixed run's step, as the stepper does")
	assert.False(t, v.Away, "on a run of the reader's own the card's step means nothing")
	assert.Equal(t, "400", s.Response().Status)
	require.NoError(t, s.TourTo(7))
	assert.Equal(t, "200", s.Response().Status, "back on the demo's run")
	assert.Equal(t, "The tour runs on the article's demo, so it put the demo back: admission mode fixed → vulnerable.", s.Tour().Reset)

	s.StepBy(-1)
	v = s.Tour()
	assert.True(t, v.Away, "the reader stepped off the card's step")
	assert.Equal(t, v.Card.Step-1, v.Step)
	require.NoError(t, s.SetChoice(Door, DoorFixed))
	assert.Empty(t, s.Tour().Reset, "once the reader changes the run again, the old undo is not news")
	require.NoError(t, s.TourTo(6))
	assert.Equal(t, "The tour runs on the article's demo, so it put the demo back: what the door retires “a pending rejection, a failed transfer, an abort and a cancel” → “a failed transfer, an abort and a cancel”.", s.Tour().Reset)

	assert.Error(t, s.TourTo(9))
	s.CloseTour()
	assert.False(t, s.Tour().Open)
	assert.Equal(t, 0, s.View().Tour)
}

func TestFitLastPromptRaisesThePoolJustEnough(t *testing.T) {
	s := NewSession()
	require.True(t, s.Config().Window().Open())
	require.NoError(t, s.FitLastPrompt())
	assert.Equal(t, 144, s.Config().PoolTokens, "125 tokens need max_req_input_len 126: a prefill pool of 132 tokens, 9 pages of 16")
	assert.Equal(t, engine.DemoConfig().DecodePoolTokens, s.Config().DecodePoolTokens, "decode's pool is left alone")
	assert.Equal(t, engine.DemoConfig().ReservedDecodeTokens, s.Config().ReservedDecodeTokens, "and its reserve")
	assert.Equal(t, "200", s.Response().Status)
	assert.Equal(t, "ok", s.Response().Tone, "B reads its own pages")
	assert.False(t, s.Config().Window().Contains(engine.DemoPromptB), "prefill now admits B's prompt")
	require.NoError(t, s.FitLastPrompt(), "it fits already: nothing to do")
	assert.Equal(t, 144, s.Config().PoolTokens)
}

// The session's links are the codec's, whatever the run, step and view:
// the memoised run part changes nothing.
func TestSessionQueryIsTheCodecs(t *testing.T) {
	s := NewSession()
	check := func(what string) {
		for _, v := range []View{{}, {Embed: true, ReadOnly: true, Theme: "dark"}, {Compare: true, Tour: 2}} {
			require.Equal(t, permalink.EncodeLink(s.Link().LinkState, v.keys()...), s.Query(v), "%s %+v", what, v)
		}
	}
	check("the demo")
	require.NoError(t, s.SelectStep(5))
	check("a step")
	require.NoError(t, s.Send())
	check("after a Send (no preset any more)")
	require.NoError(t, s.LoadPreset("glm-launch"))
	check("another preset")
	require.NoError(t, s.SetMode(engine.Fixed))
	check("a new setting")
	s.Reset()
	check("an empty run")
}

// A preset's link keeps an embed's view keys, so it stays an embed; the
// full page's stays the short link.
func TestPresetHrefInKeepsTheEmbed(t *testing.T) {
	assert.Equal(t, "/?v="+permalink.Version+"&preset=door-errored", PresetHrefIn(View{Tour: 3}, "door-errored"))
	assert.Equal(t, "/?v="+permalink.Version+"&preset=demo&embed=1", PresetHrefIn(View{Embed: true}, "demo"))
	assert.Equal(t, "/?v="+permalink.Version+"&preset=demo&embed=1&ro=1&view=pool&theme=dark",
		PresetHrefIn(View{Embed: true, ReadOnly: true, Panel: "pool", Theme: "dark"}, "demo"))
}
