package web

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// mountedPage is the playground mounted in go-app's test engine, with the
// context its handlers run in.
type mountedPage struct {
	*playground
	ctx app.Context
}

// OnPreRender is the hook go-app calls natively, where OnMount is
// browser-only: it hands the test the page's context.
func (m *mountedPage) OnPreRender(ctx app.Context) { m.ctx = ctx }

func mountPage(t testing.TB) (*mountedPage, app.TestEngine) {
	t.Helper()
	m := &mountedPage{playground: newPlayground()}
	e := app.NewTestEngine()
	require.NoError(t, e.Load(m))
	e.ConsumeAll()
	return m, e
}

// rendersOf counts the components rendered while do runs on the page.
func rendersOf(t *testing.T, m *mountedPage, e app.TestEngine, do func(ctx app.Context)) map[string]int {
	t.Helper()
	widget.Renders = map[string]int{}
	defer func() { widget.Renders = nil }()
	m.ctx.Dispatch(do)
	e.ConsumeAll()
	return widget.Renders
}

// A Send renders the components whose inputs it changed and leaves the
// others alone: go-app compares a child's exported fields, and the views
// the page hands down keep their identity while unchanged.
func TestSendRendersOnlyWhatChanged(t *testing.T) {
	m, e := mountPage(t)
	require.NoError(t, m.s.SetText(model.PromptTokens, "3"))
	rendersOf(t, m, e, m.onSend) // the run leaves its preset: the picker says so
	got := rendersOf(t, m, e, m.onSend)
	t.Logf("components rendered by a Send: %v", got)
	assert.Equal(t, 1, got["playground"], "the page renders once")
	changed := []string{"responsePanel", "sendResult", "stepper", "scrubber", "scrubMarks", "pipelineView", "poolView", "gridView", "poolGrid", "prefillPool", "metricsPanel", "prometheusView", "eventLog", "sharePanel"}
	for _, c := range changed {
		assert.Equal(t, 1, got[c], "%s shows the new response", c)
	}
	for _, same := range []string{"intro", "settingsForm", "requestForm", "tour", "compareView", "lingeringPanel"} {
		assert.Zero(t, got[same], "%s did not change", same)
	}
	assert.Len(t, got, 1+len(changed), "the page and the changed ones, nothing else: %v", got)
}

// Stepping changes the step's views only: the settings, the request form
// and the counters are not rendered again.
func TestStepRendersOnlyWhatChanged(t *testing.T) {
	m, e := mountPage(t)
	got := rendersOf(t, m, e, func(ctx app.Context) { m.onSelectStep(ctx, 1) })
	for _, changed := range []string{"responsePanel", "stepper", "scrubber", "pipelineView", "poolView", "gridView", "poolGrid", "prefillPool", "eventLog"} {
		assert.Equal(t, 1, got[changed], "%s shows the step", changed)
	}
	for _, same := range []string{"intro", "settingsForm", "requestForm", "metricsPanel", "scrubMarks"} {
		assert.Zero(t, got[same], "%s did not change", same)
	}

	// From B's decode.transfer to its decode.running: an event of decode's
	// alone, so prefill's pool is not rendered again.
	rendersOf(t, m, e, func(ctx app.Context) { m.onSelectStep(ctx, 21) })
	got = rendersOf(t, m, e, func(ctx app.Context) { m.onSelectStep(ctx, 22) })
	assert.Equal(t, 1, got["gridView"], "decode's pool shows the read")
	assert.Zero(t, got["prefillPool"], "prefill's pool did not change")
}

// Each step of the demo renders the pipeline stages whose state it changed
// and passes over the others.
func TestStepRendersOnlyTheStagesItChanged(t *testing.T) {
	m, e := mountPage(t)
	require.Greater(t, m.s.Steps(), 2)
	renderedSome := false
	for step := m.s.Steps() - 1; step >= 1; step-- {
		before := m.s.Pipeline().Stages
		got := rendersOf(t, m, e, func(ctx app.Context) { m.onSelectStep(ctx, step) })
		after := m.s.Pipeline().Stages
		require.Len(t, after, len(before))
		changed := 0
		for i := range after {
			if after[i] != before[i] {
				changed++
			}
		}
		assert.Less(t, changed, len(after), "step %d: some stages keep their state", step)
		assert.Equal(t, changed, got["pipelineStage"], "step %d: the stages rendered are the ones that changed", step)
		renderedSome = renderedSome || changed > 0
	}
	assert.True(t, renderedSome, "some step moves the marker")
}
