package run

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
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
	// IDragged: the step comes from a drag of the timeline, where the
	// marker moves without its arriving halo (app.css).
	IDragged bool
}

func NewPipelineView() *pipelineView { return &pipelineView{} }

func (c *pipelineView) Pipeline(v model.PipelineView) *pipelineView { c.IPipeline = v; return c }
func (c *pipelineView) Dragged(v bool) *pipelineView                { c.IDragged = v; return c }

// laneTitles head the diagram's lanes.
var laneTitles = []struct{ lane, title string }{
	{model.LaneClient, "Client"},
	{model.LaneRouter, "Router"},
	{model.LanePrefill, "Prefill server"},
	{model.LaneDecode, "Decode server"},
}

func (c *pipelineView) Render() app.UI {
	widget.CountRender("pipelineView")
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
		body = append(body, newPipelineStage().Stage(st))
	}
	body = append(body, c.link())
	return app.Section().ID("pipeline-panel").Class("panel").Aria("labelledby", "pipeline-h").Body(
		app.H2().ID("pipeline-h").Text("The request's way through prefill and decode"),
		app.P().ID("pipeline-who").Class("hint").Text(who),
		app.Raw(pipelineLegendHTML),
		app.Ol().ID("pipeline").Class(pipelineClass(c.IDragged)).Aria("label", "Pipeline stages").Body(body...),
		// Each term and its description in a row of their own, which the
		// tour can outline (tour/tour.go: spotSelectors).
		app.Dl().Class("pipeline-halves").Body(
			app.Div().ID("pipeline-intake-row").Body(
				app.Dt().Text("Each server's intake"), app.Dd().ID("pipeline-intake").Body(
					app.Span().ID("pipeline-intake-prefill").Text(widget.OrDefault(v.PrefillIntake, "prefill: not reached yet")), app.Br(),
					app.Span().ID("pipeline-intake-decode").Text(widget.OrDefault(v.DecodeIntake, "decode: not reached yet")),
				),
			),
			app.Div().ID("pipeline-door-row").Body(app.Dt().Text("The door"), app.Dd().ID("pipeline-door").Text(v.Door)),
			app.Div().ID("pipeline-prefill-row").Body(app.Dt().Text("Prefill half"), app.Dd().ID("pipeline-prefill").Text(v.Prefill)),
			app.Div().ID("pipeline-decode-row").Body(app.Dt().Text("Decode half"), app.Dd().ID("pipeline-decode").Text(v.Decode)),
		),
	)
}

// pipelineLegendHTML says what the stages' marks mean, each drawn as the
// stages wear it: fixed markup, one raw element (as the grid's legend).
const pipelineLegendHTML = `<ul id="pipeline-legend" class="legend pipeline-legend" aria-label="What the stages' marks mean">` +
	`<li><span class="stage legend-stage stage-done" aria-hidden="true"><span class="stage-mark">✓</span></span> done</li>` +
	`<li><span class="stage legend-stage stage-current" aria-hidden="true"><span class="stage-mark">●</span></span> the selected step</li>` +
	`<li><span class="stage legend-stage stage-later" aria-hidden="true"><span class="stage-mark">…</span></span> later</li>` +
	`<li><span class="stage legend-stage stage-never" aria-hidden="true"><span class="stage-mark">–</span> <code class="stage-name">stage</code></span> struck through: the request does not pass it</li>` +
	`</ul>`

func pipelineClass(dragged bool) string {
	if dragged {
		return "pipeline dragged"
	}
	return "pipeline"
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
