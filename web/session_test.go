package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestNewSessionShowsTheDemoLeak(t *testing.T) {
	s := newSession()
	r, ok := s.eng.LastResponse()
	require.True(t, ok)
	assert.Equal(t, 200, r.Status)
	assert.Equal(t, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200", r.Verdict())
	assert.Equal(t, "B", s.tenant, "the form is ready to repeat tenant B's request")
	assert.Equal(t, "200", s.text[fieldTokens])
}

func TestFlipToFixedReplaysTheSameRequests(t *testing.T) {
	s := newSession()
	require.NoError(t, s.setChoice("mode", "fixed"))
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "Input length (200 tokens) exceeds the maximum allowed length (122 tokens). Use a shorter input or enable --allow-auto-truncate.", r.Reason)
	assert.Equal(t, 0, r.Allocated)
	assert.Len(t, s.ops, 2)
}

// Bad input in any number field shows a message and changes nothing.
func TestBadNumbersChangeNothing(t *testing.T) {
	for _, field := range []string{fieldContext, fieldPool, fieldPage, fieldSlot} {
		for _, in := range []string{"-5", "abc", "0", "99999999999999999999", "1e9", "5000000"} {
			s := newSession()
			before, ops := s.eng, len(s.ops)
			cfg := s.cfg
			err := s.setNumber(field, in)
			if field == fieldContext && in == "5000000" {
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
	s := newSession()
	require.Error(t, s.setNumber(fieldPool, "abc"))
	require.NoError(t, s.setNumber(fieldPool, "2048"))
	assert.Empty(t, s.errs[fieldPool])
	assert.Equal(t, 2048, s.cfg.PoolTokens)
	assert.Equal(t, "", s.preset, "edited settings are no longer the preset")
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 200, r.Status)
	assert.False(t, r.Leaked(), "200 tokens now fit a 2,048-token pool")
	require.NoError(t, s.setNumber(fieldPool, "681,280"))
	assert.Equal(t, "681,280", s.text[fieldPool])
}

func TestSendValidatesTheForm(t *testing.T) {
	cases := []struct {
		name, tokens, secret, tenant, field string
	}{
		{"zero tokens", "0", "x", "B", fieldTokens},
		{"words", "abc", "x", "B", fieldTokens},
		{"huge", "99999999999", "x", "B", fieldTokens},
		{"control char", "5", "a\x00b", "B", fieldSecret},
		{"long secret", "5", string(make([]byte, 300)), "B", fieldSecret},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession()
			events := len(s.eng.Events())
			s.text[fieldTokens], s.text[fieldSecret], s.tenant = c.tokens, c.secret, c.tenant
			require.Error(t, s.send())
			assert.NotEmpty(t, s.errs[c.field])
			assert.Len(t, s.eng.Events(), events)
			assert.Len(t, s.ops, 2)
		})
	}
}

func TestSendEndsEarly(t *testing.T) {
	s := newSession()
	require.NoError(t, s.loadPreset("abort-one-half"))
	s.tenant, s.text[fieldTokens], s.end = "C", "4", "cancel:"+string(engine.StagePrefillForward)
	require.NoError(t, s.send())
	r, _ := s.eng.LastResponse()
	assert.Equal(t, engine.StateCancelled, r.State)
	assert.Len(t, s.eng.Lingering(), 2)

	require.NoError(t, s.settle(r.Request, engine.OutcomeTimeout))
	assert.Len(t, s.eng.Lingering(), 1)
	require.Error(t, s.settle(r.Request, engine.OutcomeTimeout), "settled already")

	s.end = endFail
	require.NoError(t, s.send())
	r, _ = s.eng.LastResponse()
	assert.Equal(t, 500, r.Status)
}

func TestChangingPolicyDropsSettlesThatNoLongerApply(t *testing.T) {
	s := newSession()
	require.NoError(t, s.loadPreset("abort-one-half"))
	require.NoError(t, s.settle(1, engine.OutcomeDrained))
	require.NoError(t, s.setChoice("cancel", "both"))
	assert.Len(t, s.ops, 2)
	assert.Contains(t, s.notice, "1 operation no longer apply")
}

func TestTenants(t *testing.T) {
	s := newSession()
	require.NoError(t, s.addTenant())
	assert.Equal(t, "D", s.tenant)
	require.NoError(t, s.renameTenant("  Acme Corp "))
	assert.Equal(t, []string{"A", "B", "C", "Acme Corp"}, s.tenants)
	assert.Error(t, s.renameTenant("A"), "duplicate")
	assert.Error(t, s.renameTenant(""))
	assert.Error(t, s.renameTenant("a-name-that-is-much-too-long-for-a-tenant"))
	assert.NotEmpty(t, s.errs[fieldRename])
	assert.Error(t, s.selectTenant("nobody"))
	require.NoError(t, s.selectTenant("A"))
}

func TestStepZoomAndReset(t *testing.T) {
	s := newSession()
	require.NoError(t, s.selectStep(4))
	p, err := s.snapshot().Page(0)
	require.NoError(t, err)
	assert.Equal(t, engine.PageAllocated, p.State, "after step 4 r1 holds page 0")
	assert.Error(t, s.selectStep(-1))
	assert.Error(t, s.selectStep(999))
	assert.Error(t, s.zoom(5, 2))
	assert.Error(t, s.zoom(0, 8))
	require.NoError(t, s.zoom(2, 5))
	s.reset()
	assert.Empty(t, s.ops)
	assert.Empty(t, s.eng.Events())
	assert.Equal(t, 0, s.zoomFirst)
	assert.Equal(t, 7, s.zoomLast)
}

func TestLoadPresetRejectsUnknown(t *testing.T) {
	s := newSession()
	assert.Error(t, s.loadPreset("nope"))
	assert.Equal(t, "demo", s.preset)
}
