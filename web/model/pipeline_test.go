package model

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// states is the diagram's stage states in pipeline order.
func states(v PipelineView) []string {
	out := make([]string, len(v.Stages))
	for i, st := range v.Stages {
		out[i] = st.State
	}
	return out
}

// Each server's validate_input_length on a prompt of n tokens, in the
// diagram's words, at c's limits.
func rejectsWords(c engine.Config, srv engine.Server, n int) string {
	return fmt.Sprintf("%s: %s ≥ %s → FINISH_ABORT(400) pending, prompt swapped for [0]", srv, th(n), th(c.LimitsOf(srv).MaxReqInputLen()))
}

func admitsWords(c engine.Config, srv engine.Server, n int) string {
	return fmt.Sprintf("%s: %s < %s → admitted", srv, th(n), th(c.LimitsOf(srv).MaxReqInputLen()))
}

func th(n int) string { return engine.Thousands(int64(n)) }

var (
	demoCfg         = engine.DemoConfig()
	prefillRejectsB = rejectsWords(demoCfg, engine.ServerPrefill, engine.DemoPromptB)
	decodeAdmitsB   = admitsWords(demoCfg, engine.ServerDecode, engine.DemoPromptB) + fmt.Sprintf(", reserves %d pages for %s tokens", demoCfg.ReservedPages(engine.DemoPromptB), th(engine.DemoPromptB))
)

const walkedThrough = "Checked req.finished(): false — admitted. Ignored: to_finish = FINISH_ABORT(400), pending since intake."

// The diagram at B's admission (step 15) in the demo's scenarios: each
// server's verdict, what the door saw, where the request goes next.
func TestPipelineAtBsAdmission(t *testing.T) {
	cases := []struct {
		preset, prefill, decode, door string
		// router, intake, admission, bootstrap, prealloc, forward, send_kv_chunk, transfer, running, response, release
		states []string
	}{
		{"demo", prefillRejectsB, decodeAdmitsB, walkedThrough,
			[]string{"never", "done", "current", "later", "later", "later", "later", "later", "later", "later", "later"}},
		// Decode's pool as small as prefill's: both reject B. The door
		// lets it in; decode reserves one page for its own placeholder
		// and answers the 400 itself, after it ran.
		{"symmetric", "", "", walkedThrough,
			[]string{"never", "done", "current", "later", "later", "later", "later", "later", "later", "later", "later"}},
		// Decode's verdict is what it would have reserved: the door
		// retires B first.
		{"demo-fixed", prefillRejectsB, strings.Replace(decodeAdmitsB, "reserves", "would reserve", 1) + " — the door retires it first",
			"Checked to_finish: FINISH_ABORT(400) pending — retired with its 400 before any page was allocated (no KV sender, no KV receiver).",
			[]string{"never", "done", "current", "never", "never", "never", "never", "never", "never", "later", "never"}},
	}
	for _, tc := range cases {
		t.Run(tc.preset, func(t *testing.T) {
			s := NewSession()
			require.NoError(t, s.LoadPreset(tc.preset))
			require.NoError(t, s.SelectStep(stepOf(t, s.eng, 2, engine.StageAdmission)))
			if tc.preset == "symmetric" { // B at decode's limit, which is prefill's
				n := s.ops[1].Send.PromptTokens
				tc.prefill = rejectsWords(s.cfg, engine.ServerPrefill, n)
				tc.decode = rejectsWords(s.cfg, engine.ServerDecode, n) + ", reserves 1 page for it"
			}
			v := s.Pipeline()
			assert.Equal(t, 2, v.Request)
			assert.Equal(t, "B", v.Tenant)
			assert.Equal(t, engine.StageAdmission, v.Stage)
			assert.Equal(t, tc.prefill, v.PrefillIntake)
			assert.Equal(t, tc.decode, v.DecodeIntake)
			assert.Equal(t, tc.door, v.Door)
			assert.Equal(t, tc.states, states(v))
			assert.Empty(t, v.Transfer, "nothing crossed the link yet")
		})
	}
}

// After the door: prefill's one placeholder token crosses the link into
// the pages decode reserved for the prompt as it saw it.
func TestPipelineFollowsBAfterTheDoor(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.SelectStep(stepOf(t, s.eng, 2, engine.StagePrefillTransfer))) // send_kv_chunk
	v := s.Pipeline()
	assert.Equal(t, engine.StagePrefillTransfer, v.Stage)
	assert.Equal(t, fmt.Sprintf("wrote 1 token into 1 of %d reserved pages; decode commits %s positions (prefill's one placeholder token)",
		demoCfg.ReservedPages(engine.DemoPromptB), th(engine.DemoPromptB)), v.Transfer)
	assert.Equal(t, "prefill.transfer — send_kv_chunk over RDMA", v.Prefill, "the stage, and what it does in words")
	assert.Equal(t, "decode.prealloc — pop_preallocated: the budget, then pages for fill_len; send_metadata", v.Decode, "decode waits for the transfer")
	assert.Equal(t, engine.PollSuccess, v.Poll)

	require.NoError(t, s.SelectStep(s.eng.Log().Len())) // decode's release, after prefill's
	v = s.Pipeline()
	assert.Equal(t, engine.StageRelease, v.Stage)
	assert.Equal(t, "release — free() on each pool: ids back, KV kept", v.Prefill)
	assert.Equal(t, v.Prefill, v.Decode)
	assert.Equal(t, StageCurrent, v.Stages[len(v.Stages)-1].State)

	require.NoError(t, s.LoadPreset("symmetric"))
	require.NoError(t, s.SelectStep(stepOf(t, s.eng, 2, engine.StagePrefillTransfer)))
	assert.Equal(t, "wrote 1 token into 1 of 1 reserved pages; decode commits 1 position (prefill's one placeholder token)", s.Pipeline().Transfer)
	require.NoError(t, s.SelectStep(0))
	assert.Equal(t, "400", s.Response().Status)
	assert.NotEqual(t, "leak", s.Response().Tone)
}

// Each server's verdict shows once its own validate_input_length has run:
// prefill's first (step 13), decode's at the next step.
func TestPipelineShowsEachServersIntakeAsItRuns(t *testing.T) {
	s := NewSession()
	intake := stepOf(t, s.eng, 2, engine.StageIntake)
	require.NoError(t, s.SelectStep(intake-1)) // r1's decode release
	v := s.Pipeline()
	assert.Equal(t, 1, v.Request)
	assert.Equal(t, admitsWords(demoCfg, engine.ServerPrefill, engine.DemoPromptA), v.PrefillIntake, "A fits both")
	assert.Equal(t, admitsWords(demoCfg, engine.ServerDecode, engine.DemoPromptA)+fmt.Sprintf(", reserves %d pages for %d tokens", demoCfg.ReservedPages(engine.DemoPromptA), engine.DemoPromptA), v.DecodeIntake)

	require.NoError(t, s.SelectStep(intake)) // r2's intake on prefill
	v = s.Pipeline()
	assert.Equal(t, engine.StageIntake, v.Stage)
	assert.Equal(t, prefillRejectsB, v.PrefillIntake)
	assert.Empty(t, v.DecodeIntake, "decode has not seen the prompt yet")
	assert.Equal(t, "not started", v.Decode)
	assert.Equal(t, "Not reached yet.", v.Door)

	require.NoError(t, s.SelectStep(intake+1)) // r2's intake on decode
	v = s.Pipeline()
	assert.Equal(t, decodeAdmitsB, v.DecodeIntake)
	assert.Equal(t, "intake — validate_input_length, each server against its own pool", v.Decode)

	// A prompt the API refuses reaches neither server's intake.
	require.NoError(t, s.SetText(PromptTokens, "300"))
	require.NoError(t, s.Send())
	v = s.Pipeline()
	assert.Empty(t, v.PrefillIntake)
	assert.Empty(t, v.DecodeIntake)
	assert.Equal(t, "Never reached: the API refused the prompt (longer than the context).", v.Door)
}

func TestPipelineBeforeAnyRequest(t *testing.T) {
	s := NewSession()
	s.Reset()
	v := s.Pipeline()
	assert.Zero(t, v.Request)
	assert.Equal(t, "No request has reached the door yet.", v.Door)
	require.Len(t, v.Stages, 11)
	for _, st := range v.Stages {
		assert.Equal(t, StageNever, st.State, st.Stage)
	}
}

// timelineAfresh is Timeline built in one pass over the whole log, as it
// was before the marks were extended: what the extended ones must equal.
func timelineAfresh(e *engine.Engine) []TimelineMark {
	marks := []TimelineMark{}
	started := map[int]bool{}
	for _, ev := range e.Log().Copy() {
		if ev.Request == 0 || ev.Victim != 0 {
			continue
		}
		if !started[ev.Request] {
			started[ev.Request] = true
			marks = append(marks, TimelineMark{Step: ev.Step, Request: ev.Request, Tenant: ev.Tenant}.labelled())
		}
		if ev.Stage == engine.StageResponse {
			r := e.Responses()[ev.Request-1]
			marks = append(marks, TimelineMark{Step: ev.Step, Request: ev.Request, Tenant: ev.Tenant, End: true, Status: r.Status, Leak: r.Leaked()}.labelled())
		}
	}
	return marks
}

func TestTheTimelineIsExtendedAsTheLogGrows(t *testing.T) {
	s := NewSession()
	first := s.Timeline()
	require.NoError(t, s.Send())
	second := s.Timeline()
	assert.Equal(t, timelineAfresh(s.eng), second)
	assert.Equal(t, first, second[:len(first)], "the marks so far are kept")
	require.NoError(t, s.SelectStep(3))
	assert.Equal(t, second, s.Timeline(), "a step moves no mark")
	require.NoError(t, s.LoadPreset("glm-launch"))
	assert.Equal(t, timelineAfresh(s.eng), s.Timeline(), "another run starts afresh")
}

func TestTimelineMarksEachRequestsStartAndEnd(t *testing.T) {
	s := NewSession()
	marks := s.Timeline()
	var labels []string
	for _, m := range marks {
		labels = append(labels, m.Label())
	}
	assert.Equal(t, []string{"r1 · A", "r1 200", "r2 · B", "r2 200 ⚠ leak"}, labels)
	assert.Equal(t, []int{1, 11, 13, 23}, []int{marks[0].Step, marks[1].Step, marks[2].Step, marks[3].Step})
	assert.Equal(t, []bool{false, true, false, true}, []bool{marks[0].End, marks[1].End, marks[2].End, marks[3].End})
}

// The router's box says why it is struck through: only a client abort
// brings the request there.
func TestPipelineSaysWhyTheRouterIsStruckThrough(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("demo"))
	require.NoError(t, s.SelectStep(15))
	router := s.Pipeline().Stages[0]
	require.Equal(t, engine.StageRouter, router.Stage)
	assert.Equal(t, StageNever, router.State)
	assert.Equal(t, "Struck through: this box is the router's answer to a client abort (the “Router on client abort” setting), and this request's client did not cancel.", router.Why)
	for i, st := range s.Pipeline().Stages[1:] {
		assert.Empty(t, st.Why, "stage %d says nothing the legend does not", i+1)
	}

	require.NoError(t, s.LoadPreset("abort-both"))
	step := -1
	for i := range s.Engine().Log().Len() {
		if ev := s.Engine().Log().At(i); ev.Stage == engine.StageRouter {
			step = ev.Step
		}
	}
	require.Positive(t, step, "A's client cancels: the router answers")
	require.NoError(t, s.SelectStep(step))
	assert.Equal(t, StageCurrent, s.Pipeline().Stages[0].State)
	assert.Empty(t, s.Pipeline().Stages[0].Why)

	s.Reset()
	assert.Empty(t, s.Pipeline().Stages[0].Why, "no request, no reason")
}

// The decode.prealloc box shows pop_preallocated's check as the engine
// made it: the demo's B fits with the page's reserve; at SGLang's default
// neither A nor B is ever preallocated, nothing leaks, and the line under
// Send says why B waits.
func TestPipelineShowsDecodesBudget(t *testing.T) {
	s := NewSession()
	prealloc := stepOf(t, s.eng, 2, engine.StageDecodePrealloc)
	require.NoError(t, s.SelectStep(prealloc-1))
	box := func() PipelineStage {
		for _, st := range s.Pipeline().Stages {
			if st.Stage == engine.StageDecodePrealloc {
				return st
			}
		}
		t.Fatal("no decode.prealloc box")
		return PipelineStage{}
	}
	assert.Empty(t, box().Budget, "not weighed yet")
	require.NoError(t, s.SelectStep(prealloc))
	c := s.cfg
	empty := engine.Budget{Available: c.PagesOf(engine.ServerDecode) * c.PageTokens}
	check := empty.Check(engine.DemoPromptB, c.Admit(engine.DemoPromptB, 0).MaxNew, c.ReservedDecodeTokens, c.PageTokens)
	require.True(t, check.Fits())
	assert.Equal(t, check.String(), box().Budget)
	assert.Equal(t, fmt.Sprintf("%d + %d reserved ≤ %d free", engine.DemoPromptB, c.ReservedDecodeTokens, empty.Available), box().Budget)

	require.NoError(t, s.SetNumber(ReservedDecode, engine.Thousands(engine.DefaultReservedDecodeTokens)))
	assert.Equal(t, engine.DefaultReservedDecodeTokens, s.cfg.ReservedDecodeTokens)
	assert.Zero(t, s.eng.Metrics().LeakedPages, "nothing is preallocated, so nothing leaks")
	assert.Equal(t, []int{1, 2}, s.eng.Waiting())
	assert.Equal(t, " for tenant B (request r2 waits in DecodePreallocQueue: behind r1)", s.Response().Who)

	// B alone meets the budget itself.
	s.Reset()
	require.NoError(t, s.SelectTenant("B"))
	require.NoError(t, s.SetText(PromptTokens, th(engine.DemoPromptB)))
	require.NoError(t, s.Send())
	c = s.cfg
	check = empty.Check(engine.DemoPromptB, c.Admit(engine.DemoPromptB, 0).MaxNew, c.ReservedDecodeTokens, c.PageTokens)
	require.False(t, check.Fits())
	assert.Equal(t, " for tenant B (request r1 waits in DecodePreallocQueue: "+check.String()+")", s.Response().Who)
	assert.Contains(t, s.Response().Who, fmt.Sprintf("%d + %d reserved > %d", engine.DemoPromptB, engine.DefaultReservedDecodeTokens, empty.Available))
	assert.Equal(t, check.String(), box().Budget)
}
