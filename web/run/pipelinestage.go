package run

import (
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
	st := c.IStage
	li := app.Li().Class("stage lane-"+st.Lane+" stage-"+st.State).DataSet("stage", string(st.Stage)).
		DataSet("state", st.State).DataSet("lane", st.Lane).Title(st.Role)
	if st.State == model.StageCurrent {
		li = li.Aria("current", "step")
	}
	return li.Body(
		app.Span().Class("stage-mark").Aria("hidden", "true").Text(stageMarks[st.State]),
		// In a narrow column "prefill.bootstrap" wraps after its dot, and the
		// role's identifiers between their parts, not mid-word.
		app.Code().Class("stage-name").Body(breakable(string(st.Stage))...),
		app.Span().Class("stage-role").Body(breakable(st.Role)...),
		app.If(st.Budget != "", func() app.UI { return app.Span().Class("stage-budget").Text(st.Budget) }),
		app.If(st.Why != "", func() app.UI { return app.Span().Class("stage-why").Text(st.Why) }),
		app.Span().Class("visually-hidden").Text(" ("+stageWords[st.State]+")"),
	)
}

var stageMarks = map[string]string{model.StageDone: "✓", model.StageCurrent: "●", model.StageLater: "…", model.StageNever: "–"}

var stageWords = map[string]string{
	model.StageDone:    "done",
	model.StageCurrent: "the selected step",
	model.StageLater:   "later",
	model.StageNever:   "not on this request's way",
}
