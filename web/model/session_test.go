package model

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestNewSessionShowsTheDemoLeak(t *testing.T) {
	s := NewSession()
	r, ok := s.eng.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200 — decode attended over 125 positions; prefill wrote 1", r.Verdict())
	assert.Equal(t, "B", s.tenant, "the form is ready to repeat tenant B's request")
	assert.Equal(t, "125", s.text[PromptTokens])
}

func TestFlipToFixedReplaysTheSameRequests(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SetMode(engine.Fixed))
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "Input length (125 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate.", r.Reason)
	assert.Equal(t, 0, r.Allocated)
	assert.Len(t, s.ops, 2)
}

// Bad input in any number field shows a message and changes nothing.
func TestBadNumbersChangeNothing(t *testing.T) {
	for _, field := range []Field{Context, Pool, DecodePool, PageSize} {
		for _, in := range []string{"-5", "abc", "0", "99999999999999999999", "1e9", "5000000"} {
			s := NewSession()
			before, ops := s.eng, len(s.ops)
			cfg := s.cfg
			err := s.SetNumber(field, in)
			if field == Context && in == "5000000" {
				require.NoError(t, err, "5,000,000 is a valid context")
				continue
			}
			require.Error(t, err, "%s=%s", field, in)
			assert.NotEmpty(t, s.errs[field], "%s=%s", field, in)
			assert.Same(t, before, s.eng, "%s=%s rebuilt the engine", field, in)
			assert.Equal(t, cfg, s.cfg)
			assert.Len(t, s.ops, ops)
			assert.Equal(t, in, s.text[field], "the field keeps what was typed")
		}
	}
}

func TestGoodNumberRebuildsAndClearsTheError(t *testing.T) {
	s := NewSession()
	require.Error(t, s.SetNumber(Pool, "abc"))
	require.NoError(t, s.SetNumber(Pool, "2048"))
	assert.Empty(t, s.errs[Pool])
	assert.Equal(t, 2048, s.cfg.PoolTokens)
	assert.Equal(t, "", s.preset, "edited settings are no longer the preset")
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 200, r.Status)
	assert.False(t, r.Leaked(), "125 tokens now fit a 2,048-token prefill pool")
	require.NoError(t, s.SetNumber(Pool, "681,280"))
	assert.Equal(t, "681,280", s.text[Pool])
}

func TestSendValidatesTheForm(t *testing.T) {
	cases := []struct {
		name, tokens, secret, tenant string
		field                        Field
	}{
		{"zero tokens", "0", "x", "B", PromptTokens},
		{"words", "abc", "x", "B", PromptTokens},
		{"huge", "99999999999", "x", "B", PromptTokens},
		{"control char", "5", "a\x00b", "B", Secret},
		{"long secret", "5", string(make([]byte, 300)), "B", Secret},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession()
			events := s.eng.Log().Len()
			s.text[PromptTokens], s.text[Secret], s.tenant = c.tokens, c.secret, c.tenant
			require.Error(t, s.Send())
			assert.NotEmpty(t, s.errs[c.field])
			assert.Len(t, s.eng.Log().Copy(), events)
			assert.Len(t, s.ops, 2)
		})
	}
}

func TestSendEndsEarly(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("abort-one-half"))
	require.Len(t, s.eng.Lingering(), 1, "A's decode half holds its pages until ABORT_ACK")
	require.NoError(t, s.Settle(1, engine.OutcomeDrained))
	require.Empty(t, s.eng.Waiting(), "the release let every waiting request through")
	// max_new_tokens 2: decode's budget weighs the prompt and its output.
	s.tenant, s.text[PromptTokens], s.text[MaxNew], s.end = "C", "4", "2", "cancel:"+string(engine.StagePrefillForward)
	require.NoError(t, s.Send())
	r, _ := s.eng.LastResponse()
	assert.Equal(t, engine.StateCancelled, r.State)
	assert.Equal(t, []int{r.Request}, s.eng.Lingering(), "the router cancelled only C's decode half")

	require.NoError(t, s.Settle(r.Request, engine.OutcomeTimeout))
	assert.Empty(t, s.eng.Lingering())
	require.Error(t, s.Settle(r.Request, engine.OutcomeTimeout), "settled already")

	s.end = EndFail
	require.NoError(t, s.Send())
	r, _ = s.eng.LastResponse()
	assert.Equal(t, 500, r.Status)
}

func TestChangingPolicyDropsSettlesThatNoLongerApply(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("abort-one-half"))
	require.NoError(t, s.Settle(1, engine.OutcomeDrained))
	require.NoError(t, s.SetCancel(engine.CancelBoth))
	assert.Len(t, s.ops, 2)
	assert.Contains(t, s.notice, "1 operation no longer apply")
}

func TestTenants(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.AddTenant())
	assert.Equal(t, "D", s.tenant)
	require.NoError(t, rename(s, "  Acme Corp "))
	assert.Equal(t, []string{"A", "B", "C", "Acme Corp"}, s.tenants)
	assert.Error(t, rename(s, "A"), "duplicate")
	assert.Error(t, rename(s, ""))
	assert.Error(t, rename(s, "a-name-that-is-much-too-long-for-a-tenant"))
	assert.NotEmpty(t, s.errs[TenantName])
	assert.Error(t, s.SelectTenant("nobody"))
	require.NoError(t, s.SelectTenant("A"))
}

func TestStepZoomAndReset(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SelectStep(stepOf(t, s.eng, 1, engine.StageDecodePrealloc)))
	p, err := s.Snapshot().Page(0)
	require.NoError(t, err)
	assert.Equal(t, engine.PageAllocated, p.State, "after its decode.prealloc r1 holds decode's first page")
	assert.Error(t, s.SelectStep(-1))
	assert.Error(t, s.SelectStep(999))
	pages := s.cfg.PagesOf(engine.ServerDecode)
	assert.Error(t, s.Zoom(5, 2))
	assert.Error(t, s.Zoom(0, pages), "decode's pool has %d pages", pages)
	require.NoError(t, s.Zoom(2, pages-1))
	s.Reset()
	assert.Empty(t, s.ops)
	assert.Empty(t, s.eng.Log().Copy())
	assert.Equal(t, 0, s.zoomFirst)
	assert.Equal(t, pages-1, s.zoomLast, "the grid is decode's pool")
}

func TestLoadPresetRejectsUnknown(t *testing.T) {
	s := NewSession()
	assert.Error(t, s.LoadPreset("nope"))
	assert.Equal(t, "demo", s.preset)
}

// rename types name into the rename field and presses Rename.
func rename(s *Session, name string) error {
	if err := s.SetText(TenantName, name); err != nil {
		return err
	}
	return s.Rename()
}

// The settings' and the picker's views are kept between renders (the same
// slice while nothing changed) and follow every change of a field's text,
// its message, the configuration and the preset.
func TestKeptFormViewsFollowTheFields(t *testing.T) {
	s := NewSession()
	setting := func(f Field) SettingView {
		t.Helper()
		for _, v := range s.Settings() {
			if v.Field == f {
				return v
			}
		}
		t.Fatalf("no setting %s", f)
		return SettingView{}
	}
	kept := s.Settings()
	assert.Same(t, &kept[0], &s.Settings()[0], "nothing changed: the same views")
	assert.Equal(t, "demo", s.Presets().Selected)

	require.Error(t, s.SetNumber(Pool, "12x"))
	assert.Equal(t, "12x", setting(Pool).Text, "the typed text")
	assert.NotEmpty(t, setting(Pool).Err, "its message")
	require.Error(t, s.SetNumber(Pool, "13x"))
	assert.Equal(t, "13x", setting(Pool).Text, "another text, the same message")
	require.NoError(t, s.SetNumber(Pool, "256"))
	assert.Equal(t, "256", setting(Pool).Text)
	assert.Empty(t, setting(Pool).Err, "the message cleared")
	assert.Equal(t, PresetCustom, s.Presets().Selected, "the run left the preset")
	require.NoError(t, s.SetChoice(Mode, string(engine.Fixed)))
	assert.Equal(t, modeHint(engine.Fixed), setting(Mode).Hint, "the hint follows the configuration")
	require.NoError(t, s.LoadPreset("demo"))
	assert.Equal(t, "demo", s.Presets().Selected)
	assert.Equal(t, s.settingsAfresh(), s.Settings())
}

// A run file made when the engine had one pool imports: decode gets the
// pool a single-pool run is given, and the notice says what changed.
// testdata/demo-v2.json is the demo as version 2 exported it (commit
// 39bd10b): pages per slot in its config, B's 200 tokens.
func TestImportVersion2RunFileShowsTheNotice(t *testing.T) {
	data, err := os.ReadFile("testdata/demo-v2.json")
	require.NoError(t, err)
	require.Contains(t, string(data), `"slot": 8`)
	s := NewSession()
	require.NoError(t, s.ImportRun(data))
	assert.Equal(t, 256, s.Config().DecodePoolTokens, "the 256-token context, backed")
	assert.Equal(t, 128, s.Config().PoolTokens, "its pool is prefill's")
	assert.Equal(t, engine.Sorted, s.Config().Allocator, "version 2 named its allocator")
	assert.Zero(t, s.Config().ReservedDecodeTokens, "it reserved nothing for decoding")
	_, changed := engine.MigrateV3(s.Config(), s.Ops()) // the pool it was given already decodes both
	assert.Equal(t, "This file (run file version 2) was made when the playground had one KV pool. Its pages-per-slot setting is gone: decode now reserves the pages of the prompt as its own intake sees it, as SGLang's DecodePreallocQueue does. Its pool is now the prefill server's; decode's pool, which it did not set, is 256 tokens — enough to back the advertised context, so every prompt the API passes reaches decode's door as before. "+changed+" Outcomes may differ from when it was made.",
		s.Notice())
	assert.Contains(t, changed, "decode's pool stays 256 tokens", "256 tokens decode A and B")
	assert.Empty(t, s.Preset())
	r, ok := s.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Tokens)
	assert.Equal(t, 7, r.LeakedPages.Len(), "B still reads A's seven stale pages")

	// Exported again, it is a file of this version, and imports without a word.
	again, err := json.Marshal(s.Engine().Export(s.Ops()))
	require.NoError(t, err)
	o := NewSession()
	require.NoError(t, o.ImportRun(again))
	assert.Empty(t, o.Notice())
	assert.Equal(t, s.Config(), o.Config())

	// As version 1, without its allocator, it runs with lifo and says so.
	v1 := strings.Replace(strings.Replace(string(data), `"version": 2`, `"version": 1`, 1), `"alloc": "sorted",`, "", 1)
	require.NoError(t, o.ImportRun([]byte(v1)))
	assert.Equal(t, engine.LIFO, o.Config().Allocator)
	assert.Contains(t, o.Notice(), "This file (run file version 1) was made when the playground had one KV pool.")
	assert.Contains(t, o.Notice(), "It keeps the lifo allocator it was made with.")
}
