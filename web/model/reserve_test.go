package model

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/permalink"
)

// Decode's reserve is a setting: its own field and link key, 0 allowed,
// bad input refused in words with nothing changed, kept when another
// setting changes, and a "why?" that names SGLang's default and the
// page's choice.
func TestReservedDecodeIsASetting(t *testing.T) {
	assert.Equal(t, "reserved-decode", ReservedDecode.ID())
	assert.Equal(t, "reserve", ReservedDecode.Key())
	assert.Contains(t, Settings, ReservedDecode)

	s := NewSession()
	var v SettingView
	for _, sv := range s.Settings() {
		if sv.Field == ReservedDecode {
			v = sv
		}
	}
	require.Equal(t, ReservedDecode, v.Field)
	assert.Equal(t, engine.Thousands(int64(engine.DemoConfig().ReservedDecodeTokens)), v.Text)
	assert.Contains(t, v.Hint, "SGLang's default is "+strconv.Itoa(engine.DefaultReservedDecodeTokens))
	assert.Contains(t, v.Hint, "the demo's "+strconv.Itoa(engine.DemoConfig().ReservedDecodeTokens)+" is this page's choice")

	for _, bad := range []string{"-1", "lots", "", "1.5", "5M"} {
		before, ops := s.eng, len(s.ops)
		require.Error(t, s.SetNumber(ReservedDecode, bad), bad)
		assert.NotEmpty(t, s.Err(ReservedDecode), bad)
		assert.Same(t, before, s.eng, "%q changes nothing", bad)
		assert.Equal(t, ops, len(s.ops))
		assert.Equal(t, engine.DemoConfig().ReservedDecodeTokens, s.cfg.ReservedDecodeTokens)
	}
	assert.Contains(t, s.Err(ReservedDecode), "decode's reserved tokens 5,000,000: must be between 0 and 4,194,304 tokens")

	require.NoError(t, s.SetNumber(ReservedDecode, "0"))
	assert.Zero(t, s.cfg.ReservedDecodeTokens)
	assert.Empty(t, s.Err(ReservedDecode))
	require.NoError(t, s.SetNumber(ReservedDecode, "0.5k"))
	assert.Equal(t, 500, s.cfg.ReservedDecodeTokens)
	assert.Equal(t, "500", s.Text(ReservedDecode))

	require.NoError(t, s.SetNumber(DecodePool, "320"))
	require.NoError(t, s.SetChoice(Mode, string(engine.Fixed)))
	require.NoError(t, s.SetFlag(Scrub, true))
	assert.Equal(t, 500, s.cfg.ReservedDecodeTokens, "kept when other settings change")
	s.Reset()
	assert.Equal(t, 500, s.cfg.ReservedDecodeTokens, "and when the run is reset")

	assert.Contains(t, s.Query(View{}), "&reserve=500&")
	st, err := DecodeLink(s.Query(View{}))
	require.NoError(t, err)
	assert.Equal(t, s.cfg, st.Config)

	_, err = permalink.ParseCount("0")
	assert.Error(t, err, "other counts stay positive")
	n, err := permalink.ParseCountOrZero("0")
	require.NoError(t, err)
	assert.Zero(t, n)
}

// A run kept in the tab at link version 3 (no reserve in its config)
// reopens as a version 3 link does, and says so.
func TestARunKeptAtVersion3Reopens(t *testing.T) {
	p, _ := engine.PresetBySlug("demo")
	made := p.Config
	made.DecodePoolTokens = 144
	cfg, err := json.Marshal(made)
	require.NoError(t, err)
	ops, err := json.Marshal(p.Ops)
	require.NoError(t, err)
	old := strings.Replace(`{"Preset":"demo","Config":`+string(cfg)+`,"Ops":`+string(ops)+`,"Step":0,"View":{}}`,
		`"reserve":`+strconv.Itoa(made.ReservedDecodeTokens)+`,`, "", 1)
	require.NotContains(t, old, `"reserve"`)

	s := NewSession()
	require.NoError(t, s.RestoreTabRun([]byte(old)))
	made.ReservedDecodeTokens = 0
	want, changed := engine.MigrateV3(made, p.Ops)
	assert.Equal(t, want, s.Config())
	assert.Equal(t, "This run kept in this tab (link version 3) was made with an earlier version of the playground. "+changed+" Outcomes may differ from when it was made.", s.Notice())
	r, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 7, r.LeakedPages.Len(), "B still reads A's seven stale pages")

	data, err := s.TabRun()
	require.NoError(t, err)
	again := NewSession()
	require.NoError(t, again.RestoreTabRun(data))
	assert.Empty(t, again.Notice(), "kept again, it is today's")
	assert.Equal(t, s.Config(), again.Config())
}

// A run file of version 3 imports as engine.ImportRun migrates it, and the
// notice says what changed.
func TestImportVersion3RunFileShowsTheNotice(t *testing.T) {
	p, _ := engine.PresetBySlug("demo")
	made := p.Config
	made.DecodePoolTokens, made.ReservedDecodeTokens = 144, 0
	data, err := json.Marshal(engine.RunFile{Schema: engine.RunFileSchema, Version: 3, Config: made, Ops: p.Ops})
	require.NoError(t, err)
	s := NewSession()
	require.NoError(t, s.ImportRun(data))
	want, changed := engine.MigrateV3(made, p.Ops)
	assert.Equal(t, want, s.Config())
	assert.Equal(t, "This file (run file version 3) was made with an earlier version of the playground. "+changed+" Outcomes may differ from when it was made.", s.Notice())
}

// Under SGLang's per-server door the status B gets depends on the router:
// the response says so; on the other doors it does not.
func TestUpstreamStatusNamesTheRouter(t *testing.T) {
	s := NewSession()
	assert.Empty(t, s.Response().Router, "the vulnerable door: one status")
	require.NoError(t, s.LoadPreset("demo-upstream"))
	v := s.Response()
	assert.Equal(t, "500", v.Status)
	assert.Equal(t, routerWords, v.Router)
	assert.Contains(t, v.Router, "mini_lb and sgl-router return decode's")
	assert.Contains(t, modeHint(engine.Upstream), "depends on the router")
	assert.Contains(t, modeInfo(engine.Upstream).Name, "#36988")
}
