package web

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// pipelineView draws the request's way through a prefill/decode pair:
// lanes for the client, the router, the two servers and the RDMA link
// between them, one element per stage of the log. The selected event's
// stage carries the marker and aria-current="step"; each half's position
// is shown, so a half that runs on after the other was cancelled is seen.
// The lanes are CSS grid rows that stack on a phone.
type pipelineView struct {
	app.Compo

	IPipeline model.PipelineView
}

func newPipelineView() *pipelineView { return &pipelineView{} }

func (c *pipelineView) Pipeline(v model.PipelineView) *pipelineView { c.IPipeline = v; return c }

// laneTitles head the diagram's lanes.
var laneTitles = []struct{ lane, title string }{
	{model.LaneClient, "Client"},
	{model.LaneRouter, "Router"},
	{model.LanePrefill, "Prefill server"},
	{model.LaneDecode, "Decode server"},
}

func (c *pipelineView) Render() app.UI {
	countRender("pipelineView")
	v := c.IPipeline
	who := "No request yet."
	if v.Request > 0 {
		who = "Request r" + strconv.Itoa(v.Request) + " of tenant " + v.Tenant + " at " + string(v.Stage) + "."
	}
	body := []app.UI{}
	for _, l := range laneTitles {
		body = append(body, app.Div().Class("lane-title lane-"+l.lane).Aria("hidden", "true").Text(l.title))
	}
	for _, st := range v.Stages {
		body = append(body, c.stage(st))
	}
	body = append(body, c.link())
	return app.Section().ID("pipeline-panel").Class("panel").Aria("labelledby", "pipeline-h").Body(
		app.H2().ID("pipeline-h").Text("The request's way through prefill and decode"),
		app.P().ID("pipeline-who").Class("hint").Text(who),
		app.Ol().ID("pipeline").Class("pipeline").Aria("label", "Pipeline stages").Body(body...),
		app.Dl().Class("pipeline-halves").Body(
			app.Dt().Text("The door"), app.Dd().ID("pipeline-door").Text(v.Door),
			app.Dt().Text("Prefill half"), app.Dd().ID("pipeline-prefill").Text(v.Prefill),
			app.Dt().Text("Decode half"), app.Dd().ID("pipeline-decode").Text(v.Decode),
		),
	)
}

// stage is one stage's element: its name as the log prints it, its role,
// and where the request stands, in words as well as in style.
func (c *pipelineView) stage(st model.PipelineStage) app.UI {
	li := app.Li().Class("stage lane-"+st.Lane+" stage-"+st.State).DataSet("stage", string(st.Stage)).
		DataSet("state", st.State).DataSet("lane", st.Lane).Title(st.Role)
	if st.State == model.StageCurrent {
		li = li.Aria("current", "step")
	}
	return li.Body(
		app.Span().Class("stage-mark").Aria("hidden", "true").Text(stageMarks[st.State]),
		// A break opportunity after the dot, so that "prefill.bootstrap"
		// wraps there in a narrow column rather than mid-word.
		app.Code().Class("stage-name").Text(strings.ReplaceAll(string(st.Stage), ".", ".\u200b")),
		app.Span().Class("stage-role").Text(st.Role),
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

// link is the RDMA link between the servers: what crossed it.
func (c *pipelineView) link() app.UI {
	v := c.IPipeline
	cls := "rdma"
	text := "RDMA link: nothing transferred yet"
	if v.Transfer != "" {
		cls += " rdma-used"
		text = "RDMA link: " + v.Transfer
	}
	if v.Late {
		cls += " rdma-late"
		text = "RDMA link: a late transfer lands in pages decode already gave to another request"
	}
	if v.Poll != "" {
		text += " · KVPoll." + string(v.Poll)
	}
	return app.Li().ID("rdma").Class(cls).Body(
		app.Span().Class("rdma-arrow").Aria("hidden", "true").Text("⇢"),
		app.Span().Text(text),
	)
}
