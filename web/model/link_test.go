package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestPermalinkRoundTripsEveryPreset(t *testing.T) {
	presets := engine.Presets()
	require.NotEmpty(t, presets)
	for _, p := range presets {
		t.Run(p.Slug, func(t *testing.T) {
			in := LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops, Step: 3}
			out, err := DecodeLink(EncodeLink(in))
			require.NoError(t, err)
			assert.Equal(t, in, out)
		})
	}
}

func TestPermalinkEscapesHostileText(t *testing.T) {
	r := engine.Request{Tenant: "a,b&c=d", PromptTokens: 5, Content: `<img src=x onerror=alert(1)>,%;#`, CancelAt: engine.StageDecodeRunning}
	in := LinkState{Config: engine.DemoConfig(), Ops: []engine.Op{engine.SendOp(r), engine.SettleOp(1, engine.OutcomeTimeout)}}
	raw := EncodeLink(in)
	assert.NotContains(t, raw, "<img")
	out, err := DecodeLink(raw)
	require.NoError(t, err)
	assert.Equal(t, in, out)
}

func TestPermalinkDemoExample(t *testing.T) {
	p, _ := engine.PresetBySlug("demo")
	assert.Equal(t,
		"v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,200,-,summarise+my+notes",
		EncodeLink(LinkState{Preset: "demo", Config: p.Config, Ops: p.Ops}))
}

func TestPermalinkRefusesHostileLinks(t *testing.T) {
	manyOps := "v=2" + strings.Repeat("&op=s,A,1,-,x", MaxLinkOps+1)
	cases := map[string]struct{ raw, msg string }{
		"unknown version":  {"v=9&ctx=16", "unknown link version"},
		"no version":       {"ctx=16", "unknown link version"},
		"garbage":          {"%%%&&==", "unknown parameter"},
		"unknown key":      {"v=2&foo=1", "unknown parameter"},
		"negative":         {"v=2&pool=-5", "whole number"},
		"enormous":         {"v=2&pool=99999999999999", "whole number"},
		"out of range":     {"v=2&pool=5000000", "not valid"},
		"bad mode":         {"v=2&mode=evil", "not valid"},
		"bad allocator":    {"v=2&alloc=newest", "not valid"},
		"bad scrub":        {"v=2&scrub=yes", "0 or 1"},
		"duplicate":        {"v=2&pool=8&pool=9", "twice"},
		"thousands of ops": {manyOps, "at most"},
		"megabyte":         {"v=2&op=s,A,1,-," + strings.Repeat("x", 1<<20), "at most"},
		"bad op":           {"v=2&op=q,1", "must be"},
		"bad tokens":       {"v=2&op=s,A,lots,-,x", "not a whole number"},
		"bad tenant":       {"v=2&op=s,,5,-,x", "tenant name is empty"},
		"bad stage":        {"v=2&op=s,A,5,nowhere,x", "cancel stage"},
		"bad settle":       {"v=2&op=x,zero,drained", "not a request number"},
		"too much work": {"v=2&ctx=4194304&pool=4194304&page=1" + strings.Repeat("&op=s,A,4194304,-,x", 3),
			"would touch"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeLink(c.raw)
			require.Error(t, err)
			assert.NotErrorIs(t, err, ErrNoState)
			assert.Contains(t, err.Error(), c.msg)
			assert.Less(t, len(err.Error()), 300, "banner text stays short")
		})
	}
}

func TestPermalinkWithoutState(t *testing.T) {
	for _, raw := range []string{"", "embed=1", "embed=1&ro=1"} {
		st, err := DecodeLink(raw)
		assert.ErrorIs(t, err, ErrNoState, raw)
		assert.Equal(t, strings.Contains(raw, "embed"), st.View.Embed)
	}
}

func TestApplyLinkReplaysOrChangesNothing(t *testing.T) {
	s := NewSession()
	st, err := DecodeLink("v=2&ctx=16&pool=8&page=1&slot=8&mode=fixed&alloc=fifo&cancel=both&scrub=0&op=s,A,1,-,S&op=s,B,12,-,x&step=5")
	require.NoError(t, err)
	require.NoError(t, s.ApplyLink(st))
	assert.Equal(t, 5, s.step)
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, st, func() LinkState { l := s.Link(); return l }())

	before := s.eng
	st.Ops = append(st.Ops, engine.SettleOp(1, engine.OutcomeDrained))
	assert.Error(t, s.ApplyLink(st), "nothing lingers to settle")
	assert.Same(t, before, s.eng)
	st.Ops, st.Step = st.Ops[:2], 999
	assert.Error(t, s.ApplyLink(st))
	assert.Same(t, before, s.eng)
}

func FuzzDecodeLink(f *testing.F) {
	for _, p := range engine.Presets() {
		f.Add(EncodeLink(LinkState{Preset: p.Slug, Config: p.Config, Ops: p.Ops}))
	}
	f.Add("v=1&op=s,%ZZ,1,-,x")
	f.Fuzz(func(t *testing.T, raw string) {
		st, err := DecodeLink(raw)
		if err != nil {
			return
		}
		s := NewSession()
		_ = s.ApplyLink(st) // must not panic or hang
	})
}

func TestPermalinkShortPresetForm(t *testing.T) {
	st, err := DecodeLink("v=1&preset=glm-launch&step=4")
	require.NoError(t, err)
	p, _ := engine.PresetBySlug("glm-launch")
	assert.Equal(t, p.Config, st.Config)
	assert.Equal(t, p.Ops, st.Ops)
	assert.Equal(t, 4, st.Step)
}

func TestLinkableBoundsFollowDecodeLink(t *testing.T) {
	s := NewSession()
	assert.True(t, s.Linkable())
	_, err := DecodeLink(s.Query(View{}))
	require.NoError(t, err)

	require.NoError(t, s.SelectTenant("A"))
	s.text[PromptTokens], s.text[Secret] = "1", "x"
	for len(s.ops) <= MaxLinkOps {
		require.NoError(t, s.Send())
	}
	assert.False(t, s.Linkable(), "%d requests", len(s.ops))
	_, err = DecodeLink(s.Query(View{}))
	assert.Error(t, err, "the link it would write does not open")
}

// Links made before version 2 keep opening, with the allocator they were
// made with, and say when the new prompt limit changes an outcome.
func TestVersion1LinksOpenWithTheirAllocator(t *testing.T) {
	old := "v=1&preset=demo&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,12,-,summarise+my+notes"
	st, err := DecodeLink(old)
	require.NoError(t, err)
	assert.Equal(t, engine.LIFO, st.Config.Allocator)
	assert.True(t, st.Legacy)
	s := NewSession()
	require.NoError(t, s.ApplyLink(st))
	assert.Equal(t, engine.LIFO, s.Config().Allocator)
	assert.Contains(t, s.Notice(), "This link was made before the playground followed SGLang's prompt limit")
	assert.Contains(t, s.Notice(), "r1, r2 now end differently", "A's 8 tokens no longer fit an 8-token pool, so B reads no A page")
	assert.True(t, strings.HasPrefix(s.AddressQuery(), "v=2&"), "the address bar moves to version 2")

	unchanged, err := DecodeLink("v=1&ctx=4096&pool=4096&page=1&slot=8&mode=fixed&cancel=both&scrub=0&op=s,A,8,-,x")
	require.NoError(t, err)
	require.NoError(t, s.ApplyLink(unchanged))
	assert.Empty(t, s.Notice(), "no outcome changed: nothing to say")

	short, err := DecodeLink("v=1&preset=glm-launch")
	require.NoError(t, err)
	assert.False(t, short.Legacy, "a preset by name is today's preset")

	_, err = DecodeLink("v=1&alloc=fifo")
	assert.ErrorContains(t, err, `parameter "alloc" is new in link version 2`)
}

// Linkable adds up the link's length (queryLen) instead of building it:
// the sum is the built query's length, for any view and a run of any size.
func TestQueryLenIsTheQuerysLength(t *testing.T) {
	s := NewSession()
	views := []View{{}, {Compare: true, Embed: true, ReadOnly: true}, {Embed: true, Panel: "pool", Theme: "dark"}, {Tour: 3}}
	require.NoError(t, s.SelectTenant("A"))
	for n := range 5 {
		for _, v := range views {
			assert.Equal(t, len(s.Query(v)), s.queryLen(v), "%d Sends, view %+v", n, v)
		}
		require.NoError(t, s.Send())
	}
}

// A run whose requests touch more pages than a link may ask for is not
// linkable, however few its operations: DecodeLink would refuse its link
// (FuzzSession found one at 8,659,296 pages). It is kept in the tab.
func TestARunTooHeavyForALinkIsNotLinkable(t *testing.T) {
	s := NewSession()
	cfg := engine.DemoConfig()
	cfg.PoolTokens, cfg.PageTokens, cfg.ContextTokens = 4_194_304, 1, 4_194_304
	require.NoError(t, s.ApplyLink(LinkState{Config: cfg}))
	for s.Linkable() {
		require.NoError(t, s.SetNumber(PromptTokens, "4194300"))
		require.NoError(t, s.Send())
	}
	assert.Greater(t, engine.ReplayWork(s.Config(), s.Ops()), int64(engine.MaxReplayWork))
	assert.LessOrEqual(t, len(s.Ops()), 3, "a few requests")
	_, err := DecodeLink(s.Query(View{}))
	require.Error(t, err, "the link it would have written is refused")
	data, err := s.TabRun()
	require.NoError(t, err)
	require.NoError(t, NewSession().RestoreTabRun(data), "the run kept in the tab reopens")
}
