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
		"v=1&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,120,-,PROJECT_ZEPHYR_Q4_FORECAST&op=s,B,200,-,summarise+my+notes",
		EncodeLink(LinkState{Preset: "demo", Config: p.Config, Ops: p.Ops}))
}

func TestPermalinkRefusesHostileLinks(t *testing.T) {
	manyOps := "v=1" + strings.Repeat("&op=s,A,1,-,x", MaxLinkOps+1)
	cases := map[string]struct{ raw, msg string }{
		"unknown version":  {"v=9&ctx=16", "unknown link version"},
		"no version":       {"ctx=16", "unknown link version"},
		"garbage":          {"%%%&&==", "unknown parameter"},
		"unknown key":      {"v=1&foo=1", "unknown parameter"},
		"negative":         {"v=1&pool=-5", "whole number"},
		"enormous":         {"v=1&pool=99999999999999", "whole number"},
		"out of range":     {"v=1&pool=5000000", "not valid"},
		"bad mode":         {"v=1&mode=evil", "not valid"},
		"bad scrub":        {"v=1&scrub=yes", "0 or 1"},
		"duplicate":        {"v=1&pool=8&pool=9", "twice"},
		"thousands of ops": {manyOps, "at most"},
		"megabyte":         {"v=1&op=s,A,1,-," + strings.Repeat("x", 1<<20), "at most"},
		"bad op":           {"v=1&op=q,1", "must be"},
		"bad tokens":       {"v=1&op=s,A,lots,-,x", "not a whole number"},
		"bad tenant":       {"v=1&op=s,,5,-,x", "tenant name is empty"},
		"bad stage":        {"v=1&op=s,A,5,nowhere,x", "cancel stage"},
		"bad settle":       {"v=1&op=x,zero,drained", "not a request number"},
		"too much work": {"v=1&ctx=4194304&pool=4194304&page=1" + strings.Repeat("&op=s,A,4194304,-,x", 3),
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
	st, err := DecodeLink("v=1&ctx=16&pool=8&page=1&slot=8&mode=fixed&cancel=both&scrub=0&op=s,A,8,-,S&op=s,B,12,-,x&step=5")
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
