package run

import (
	"html"
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

// laneTitles head the diagram's lanes, as raw markup: children of the
// list, which app.css places in the lanes' grid rows.
var laneTitles = []string{
	`<div class="lane-title lane-` + model.LaneClient + `" aria-hidden="true">Client</div>`,
	`<div class="lane-title lane-` + model.LaneRouter + `" aria-hidden="true">Router</div>`,
	`<div class="lane-title lane-` + model.LanePrefill + `" aria-hidden="true">Prefill server</div>`,
	`<div class="lane-title lane-` + model.LaneDecode + `" aria-hidden="true">Decode server</div>`,
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
		body = append(body, app.Raw(l))
	}
	for _, st := range v.Stages {
		body = append(body, newPipelineStage().Stage(st))
	}
	body = append(body, app.Raw(linkMarkup(v)))
	// Fixed or text-only parts are raw markup (escaped): it costs the wasm
	// a fraction of go-app's element calls (docs/performance.md).
	e := html.EscapeString
	return app.Section().ID("pipeline-panel").Class("panel").Aria("labelledby", "pipeline-h").Body(
		app.Raw(`<h2 id="pipeline-h">The request's way through prefill and decode</h2>`),
		app.Raw(`<p id="pipeline-who" class="hint">`+e(who)+`</p>`),
		app.Raw(pipelineLegendHTML),
		app.Ol().ID("pipeline").Class(pipelineClass(c.IDragged)).Aria("label", "Pipeline stages").Body(body...),
		// Each term and its description in a row of their own, which the
		// tour can outline (tour/tour.go: spotSelectors).
		app.Raw(`<dl class="pipeline-halves"><div id="pipeline-intake-row"><dt>Each server's intake</dt><dd id="pipeline-intake">`+
			`<span id="pipeline-intake-prefill">`+e(widget.OrDefault(v.PrefillIntake, "prefill: not reached yet"))+`</span><br>`+
			`<span id="pipeline-intake-decode">`+e(widget.OrDefault(v.DecodeIntake, "decode: not reached yet"))+`</span></dd></div>`+
			`<div id="pipeline-door-row"><dt>The door</dt><dd id="pipeline-door">`+e(v.Door)+`</dd></div>`+
			`<div id="pipeline-prefill-row"><dt>Prefill half</dt><dd id="pipeline-prefill">`+e(v.Prefill)+`</dd></div>`+
			`<div id="pipeline-decode-row"><dt>Decode half</dt><dd id="pipeline-decode">`+e(v.Decode)+`</dd></div></dl>`),
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

// linkMarkup is the RDMA link between the servers: what crossed it.
func linkMarkup(v model.PipelineView) string {
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
	return `<li id="rdma" class="` + cls + `"><span class="rdma-arrow" aria-hidden="true">⇢</span><span>` + html.EscapeString(text) + `</span></li>`
}
