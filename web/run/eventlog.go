package run

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// eventLog lists the engine's events; selecting one shows the pool after
// it. Its rows are raw HTML blocks kept from render to render, the
// selection marked on the rows in the page (dom.Log).
type eventLog struct {
	app.Compo

	IEvents   engine.Log
	ISelected int // the selected step (0: the latest)

	log      dom.Log
	onSelect func(ctx app.Context, step int)
}

// OnUpdate marks the selected row and keeps it in view inside the log's
// scroll box once go-app has updated the log (dom.Log.Follow).
func (c *eventLog) OnUpdate(ctx app.Context) {
	step := c.ISelected
	ctx.Defer(func(app.Context) { c.log.Follow(step) })
}

// OnMount marks the selected row of the blocks just mounted.
func (c *eventLog) OnMount(ctx app.Context) {
	step := c.ISelected
	ctx.Defer(func(app.Context) { dom.MarkSelectedRow(step) })
}

func (c *eventLog) OnDismount() { c.log.Stop() }

func NewEventLog() *eventLog { return &eventLog{} }

func (c *eventLog) Events(v engine.Log) *eventLog                { c.IEvents = v; return c }
func (c *eventLog) Selected(v int) *eventLog                     { c.ISelected = v; return c }
func (c *eventLog) OnSelect(fn func(app.Context, int)) *eventLog { c.onSelect = fn; return c }

func (c *eventLog) Render() app.UI {
	widget.CountRender("eventLog")
	evs := c.IEvents
	from := model.LogWindowStart(evs.Len())
	marked := c.ISelected // in the blocks on the server; on the rows in the page in the browser
	if app.IsClient {
		marked = 0
	}
	blocks := c.log.Blocks(model.EventsOf(evs), marked)
	return widget.Section("log-panel", "", "log-h", "Event log",
		app.P().Class("hint").Body(
			app.Text(fmt.Sprintf("%d events. Select one to see the pool at that step. ", evs.Len())),
			app.If(c.ISelected > 0, func() app.UI {
				return app.Button().ID("log-latest").Type("button").Class("link").Text("Back to the latest step").
					OnClick(widget.Safe(func(ctx app.Context, e app.Event) { c.onSelect(ctx, 0) }))
			}),
			app.If(from > 0, func() app.UI {
				return app.Text(fmt.Sprintf("(the first %d are not listed)", from))
			}),
		),
		app.Raw(logLegendHTML),
		app.Div().Class("log-wrap").OnClick(widget.Safe(c.onLogClick)).Body(
			app.Div().ID("log").Class("log").Body(
				app.Range(blocks).Slice(func(i int) app.UI { return app.Raw(blocks[i]) }),
			),
		),
	)
}

// logLegendHTML says what the rows' badges are: the state of the KV
// transfer as SGLang's KV sender and receiver report it to the queues that
// poll them (KVPoll, BaseKVSender.poll and BaseKVReceiver.poll in
// python/sglang/srt/disaggregation/base/conn.py).
const logLegendHTML = `<ul class="legend" aria-label="What the badges mean">` +
	`<li><span class="log-poll">KVPoll.…</span> the KV transfer&#39;s state as SGLang polls it; ` +
	`<span class="log-poll" data-poll="Failed">KVPoll.Failed</span> in red: the transfer failed</li></ul>`

// onLogClick selects the clicked row's step.
func (c *eventLog) onLogClick(ctx app.Context, e app.Event) {
	if step, ok := dom.ClickedStep(e); ok {
		c.onSelect(ctx, step)
	}
}
