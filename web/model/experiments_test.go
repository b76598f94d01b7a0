package model

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// Bad values through the form get a message beside the field and change
// nothing (in a link: permalink's TestSettingsBadValues).
func TestExperimentBadValues(t *testing.T) {
	cases := []struct {
		f   Field
		val string
		msg string
	}{
		{Door, "rejected.finished", `what the door retires "rejected.finished": must be "none", "all" or states among rejected, errored, aborted and cancelled joined by dots`},
		{Gateway, "maybe", `AI gateway "maybe": must be "off", "alert" or "block"`},
	}
	for _, tc := range cases {
		s := NewSession()
		eng, cfg := s.eng, s.cfg
		require.Error(t, s.SetChoice(tc.f, tc.val))
		assert.Equal(t, tc.msg, s.Err(tc.f))
		assert.Same(t, eng, s.eng)
		assert.Equal(t, cfg, s.cfg)
	}
}

func TestDoorFieldset(t *testing.T) {
	s := NewSession()
	v := doorView(t, s)
	assert.Equal(t, "The door is the admission queues' check (PrefillBootstrapQueue, DecodePreallocQueue) that lets a request in or retires it. It retires a failed transfer, an abort and a cancel (as the vulnerable admission mode retires). Before #38704 SGLang's door checked only finished(); prepare_abort already marked a failed transfer or an abort finished, so only the pending rejection walked through. The length check before commit is the admission mode's part.", v.Hint)
	var on []string
	for _, it := range v.Set {
		if it.On {
			on = append(on, it.Value)
		}
	}
	assert.Equal(t, []string{"errored", "aborted", "cancelled"}, on)
	assert.Equal(t, "door-errored", v.Set[1].Preset)
	assert.Equal(t, "Door: a failed transfer decode is not told of", v.Set[1].PresetName)

	require.NoError(t, s.SetChoice(Door, DoorWith(s.cfg, "errored", false)))
	assert.Equal(t, "aborted.cancelled", s.cfg.Door)
	require.NoError(t, s.SetChoice(Door, DoorFixed))
	r, _ := s.eng.LastResponse()
	assert.Equal(t, 400, r.Status, "the fixed door retires B's pending rejection")
	require.NoError(t, s.SetChoice(Door, engine.DoorFromMode))
	r, _ = s.eng.LastResponse()
	assert.Equal(t, 200, r.Status, "back to what the vulnerable mode retires")
}

func doorView(t *testing.T, s *Session) SettingView {
	for _, v := range s.Settings() {
		if v.Field == Door {
			return v
		}
	}
	t.Fatal("no door setting")
	return SettingView{}
}

func TestRunLaunchTests(t *testing.T) {
	cases := map[string][3]string{
		"glm-launch":     {"pass", "fail", "fail"},
		"glm-remediated": {"pass", "pass", "pass"},
	}
	for slug, want := range cases {
		t.Run(slug, func(t *testing.T) {
			s := NewSession()
			require.NoError(t, s.LoadPreset(slug))
			assert.Equal(t, "The launch tests have not run on this run.", s.Launch().Summary)
			require.NoError(t, s.RunLaunchTests())
			v := s.Launch()
			var got [3]string
			for i, tt := range v.Tests {
				got[i] = tt.Result
			}
			assert.Equal(t, want, got)
			assert.Len(t, s.Ops(), 8, "the suite's four requests are in the run")
			assert.Equal(t, []LaunchRequest{{6, s.eng.Responses()[5].Step}, {7, s.eng.Responses()[6].Step}}, v.Tests[1].Requests)
			// Replayable like any other run: the link grades the same.
			st, err := DecodeLink(s.Query(s.View()))
			require.NoError(t, err)
			o := NewSession()
			require.NoError(t, o.ApplyLink(st))
			assert.Equal(t, v, o.Launch())
		})
	}
}

func TestRunLaunchTestsRefusedChangesNothing(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	for range 2 {
		require.NoError(t, s.RunLaunchTests()) // about 2M pages a suite
	}
	eng, ops := s.eng, len(s.ops)
	require.Error(t, s.RunLaunchTests())
	assert.Same(t, eng, s.eng)
	assert.Len(t, s.ops, ops)
	assert.True(t, strings.HasPrefix(s.Notice(), "The launch tests cannot run on this run: the run's requests would touch more than 8,000,000 pages"), s.Notice())
}

func TestTimelineLinksOpenTheirPresets(t *testing.T) {
	tl := IncidentTimeline()
	require.Len(t, tl, len(timeline))
	for _, p := range tl {
		if p.Preset == "" {
			assert.Empty(t, p.Href, p.When)
			assert.NotEmpty(t, p.Source, "%s: a point no preset shows cites its record", p.When)
			continue
		}
		st, err := DecodeLink(strings.TrimPrefix(p.Href, "/?"))
		require.NoError(t, err, p.When)
		assert.Equal(t, p.Preset, st.Preset)
		assert.NotEmpty(t, p.PresetName, p.When)
	}
	assert.Equal(t, "/?v=4&preset=glm-remediated-tests", tl[7].Href)
}

// The timeline dates SGLang's fixes as merged and names the open ones.
func TestTimelineDatesTheUpstreamFixes(t *testing.T) {
	at := map[string]IncidentPoint{}
	for _, p := range IncidentTimeline() {
		at[p.SourceName] = p
	}
	assert.Equal(t, "29 Aug", at["sglang#36988"].When)
	assert.Contains(t, at["sglang#36988"].What, "retires an aborted prefill result")
	assert.Equal(t, "15 Sep", at["sglang#38935"].When)
	for _, open := range []string{"sglang#38704", "sglang#33508"} {
		assert.Contains(t, at[open].What, "still open", open)
	}
	for _, merged := range []string{"sglang#36988", "sglang#38935"} {
		assert.Contains(t, at[merged].What, "depends on the router", "%s: whose status the client sees", merged)
		assert.Equal(t, "demo-upstream", at[merged].Preset)
	}
}
