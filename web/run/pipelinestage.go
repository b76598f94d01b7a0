package run

import (
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// pipelineStage is one stage of the pipeline diagram: its name as the log
// prints it, its role, and where the request stands, in words as well as in
// style. A component of its own, so that a step renders the two stages
// whose state changed and go-app passes over the rest (their input is
// equal), instead of building and diffing all eleven.
type pipelineStage struct {
	app.Compo

	IStage model.PipelineStage
}

func newPipelineStage() *pipelineStage { return &pipelineStage{} }

func (c *pipelineStage) Stage(st model.PipelineStage) *pipelineStage { c.IStage = st; return c }

func (c *pipelineStage) Render() app.UI {
	widget.CountRender("pipelineStage")
	return app.Raw(stageMarkup(c.IStage))
}

// stageMarkup is the stage's element, as raw markup (escaped): it costs the
// wasm a fraction of go-app's element calls (docs/performance.md).
func stageMarkup(st model.PipelineStage) string {
	e := html.EscapeString
	m := `<li class="stage lane-` + e(st.Lane) + ` stage-` + e(st.State) + `" data-stage="` + e(string(st.Stage)) + `" data-state="` + e(st.State) +
		`" data-lane="` + e(st.Lane) + `" title="` + e(st.Role) + `"`
	if st.State == model.StageCurrent {
		m += ` aria-current="step"`
	}
	// In a narrow column "prefill.bootstrap" wraps after its dot, and the
	// role's identifiers between their parts, not mid-word.
	m += `><span class="stage-mark" aria-hidden="true">` + stageMarks[st.State] + `</span><code class="stage-name">` + breakable(string(st.Stage)) +
		`</code><span class="stage-role">` + breakable(st.Role) + `</span>`
	if st.Budget != "" {
		m += `<span class="stage-budget">` + e(st.Budget) + `</span>`
	}
	if st.Why != "" {
		m += `<span class="stage-why">` + e(st.Why) + `</span>`
	}
	return m + `<span class="visually-hidden"> (` + stageWords[st.State] + `)</span></li>`
}

var stageMarks = map[string]string{model.StageDone: "✓", model.StageCurrent: "●", model.StageLater: "…", model.StageNever: "–"}

var stageWords = map[string]string{
	model.StageDone:    "done",
	model.StageCurrent: "the selected step",
	model.StageLater:   "later",
	model.StageNever:   "not on this request's way",
}
