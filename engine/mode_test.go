package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo through each mode: each part of #38704 stops the leak on its
// own, at a different stage.
func TestEachPartStopsTheLeak(t *testing.T) {
	cases := []struct {
		mode      Mode
		state     State
		status    int
		allocated int
		lastStage Stage // the last pipeline stage request 2 reached
	}{
		{Vulnerable, StateFinished, 200, 8, StageDecodeRunning},
		{Fixed, StateRejected, 400, 0, StageAdmission},
		{RetireOnly, StateRejected, 400, 0, StageAdmission},
		{LengthCheckOnly, StateAborted, 400, 8, StageDecodeTransfer},
	}
	for _, tc := range cases {
		t.Run(string(tc.mode), func(t *testing.T) {
			p, _ := PresetBySlug("demo")
			cfg := p.Config
			cfg.Mode = tc.mode
			e, err := Replay(cfg, p.Ops)
			require.NoError(t, err)
			r := e.Responses()[1]
			assert.Equal(t, tc.state, r.State)
			assert.Equal(t, tc.status, r.Status)
			assert.Equal(t, tc.allocated, r.Allocated)
			assert.Equal(t, tc.mode == Vulnerable, r.Leaked())
			assert.Equal(t, tc.mode == Vulnerable, r.WrongStatus)
			var last Stage
			for _, ev := range eventsOf(e.Log().Copy(), 2) {
				if ev.Stage != StageResponse && ev.Stage != StageRelease {
					last = ev.Stage
				}
			}
			assert.Equal(t, tc.lastStage, last)
			if tc.mode == LengthCheckOnly {
				assert.Empty(t, r.ReadPages, "decode read nothing")
				assert.Equal(t, "Aborted with 400 before decode committed: prefill transferred 1 token for 8 reserved pages; no stale page was read", r.Verdict())
				assert.Equal(t, 1, e.Metrics().Aborted)
				assertReleasedOnce(t, e)
			}
		})
	}
}

func TestModes(t *testing.T) {
	ms := Modes()
	var got []Mode
	for _, m := range ms {
		got = append(got, m.Mode)
		assert.NotEmpty(t, m.Name)
		// Each says whose fix it is: the article's account (#38704) or
		// SGLang's merged door (#38935); the vulnerable mode names both.
		assert.Regexp(t, `#38704|#38935|door fixes`, m.Description, m.Mode)
		c := DemoConfig()
		c.Mode = m.Mode
		assert.NoError(t, c.Validate())
	}
	assert.Equal(t, []Mode{Vulnerable, Fixed, RetireOnly, LengthCheckOnly, Upstream}, got)
	ms[0].Name = "changed"
	assert.Equal(t, "vulnerable", Modes()[0].Name, "each call returns a fresh list")
	for _, tc := range []struct {
		m              Mode
		retires, check bool
	}{{Vulnerable, false, false}, {Fixed, true, true}, {RetireOnly, true, false}, {LengthCheckOnly, false, true}, {Upstream, true, false}} {
		assert.Equal(t, tc.retires, tc.m.retires(), tc.m)
		assert.Equal(t, tc.check, tc.m.checksLength(), tc.m)
	}
}
