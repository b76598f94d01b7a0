package web

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/model"
)

// eventLog lists the engine's events; selecting one shows the pool after
// it. Its rows are raw HTML blocks kept from render to render (logblocks.go).
//
// In the browser the blocks are written without the selection, which is
// marked on the rows in the page (markSelectedRow): a step or a scrub then
// sets two rows' class and aria-pressed where it replaced one or two
// blocks of model.LogBlock rows, parsed, styled, laid out and painted
// anew. The prerendered page writes it into the blocks.
type eventLog struct {
	app.Compo

	IEvents   engine.Log
	ISelected int // the selected step (0: the latest)

	blocks   logBlocks
	follow   app.Value // the IntersectionObserver on the selected row
	onSeen   app.Func  // its callback
	onSelect func(ctx app.Context, step int)
}

// OnUpdate keeps the selected row in view inside the log's own scroll
// box, without scrolling the page (the timeline is being dragged there).
// It reads no geometry: a row's offsetTop, read here, forced the browser
// to lay the whole page out in the middle of go-app's update, on every
// step. An IntersectionObserver is told where the row is from the browser's
// own layout, after the frame, and scrolls only if it must.
func (c *eventLog) OnUpdate(ctx app.Context) {
	step := c.ISelected
	ctx.Defer(func(app.Context) {
		if c.follow != nil {
			c.follow.Call("disconnect")
		}
		wrap := app.Window().GetElementByID("log") // the scroll box
		row := markSelectedRow(step)
		if !wrap.Truthy() || !row.Truthy() || !app.Window().Get("IntersectionObserver").Truthy() {
			return
		}
		if c.onSeen == nil {
			c.onSeen = app.FuncOf(func(this app.Value, args []app.Value) any {
				if len(args) > 0 {
					centreRows(args[0], this)
				}
				return nil
			})
		}
		if c.follow == nil || !c.follow.Get("root").Equal(wrap) { // one observer while the log stands
			c.follow = app.Window().Get("IntersectionObserver").New(c.onSeen, map[string]any{"root": wrap, "threshold": 1})
		}
		c.follow.Call("observe", row)
	})
}

// centreRows scrolls the log so that a row not wholly in view is centred
// in it, from an IntersectionObserver's entries; then it stops observing.
func centreRows(entries, observer app.Value) {
	for i := range entries.Length() {
		e := entries.Index(i)
		if e.Get("intersectionRatio").Float() >= 1 || !e.Get("rootBounds").Truthy() {
			continue
		}
		box, row := e.Get("rootBounds"), e.Get("boundingClientRect")
		delta := row.Get("top").Float() + row.Get("height").Float()/2 - box.Get("top").Float() - box.Get("height").Float()/2
		observer.Get("root").Call("scrollBy", map[string]any{"top": delta})
	}
	observer.Call("disconnect")
}

// OnMount marks the selected row of the blocks just mounted.
func (c *eventLog) OnMount(ctx app.Context) {
	step := c.ISelected
	ctx.Defer(func(app.Context) { markSelectedRow(step) })
}

// markSelectedRow marks the row of step, and no other, as selected in the
// page, as logRowHTML writes it, and returns it (null when step is 0, the
// latest, or not listed).
func markSelectedRow(step int) app.Value {
	doc := app.Window().Get("document")
	row := app.Null()
	if step > 0 {
		row = doc.Call("querySelector", `#log .log-row[data-step="`+strconv.Itoa(step)+`"]`)
	}
	if was := doc.Call("querySelector", "#log .log-row.selected"); was.Truthy() && !was.Equal(row) {
		setRowSelected(was, false)
	}
	if row.Truthy() && !row.Get("classList").Call("contains", "selected").Bool() {
		setRowSelected(row, true)
	}
	return row
}

func setRowSelected(row app.Value, on bool) {
	row.Get("classList").Call("toggle", "selected", on)
	if btn := row.Get("firstElementChild"); btn.Truthy() {
		btn.Call("setAttribute", "aria-pressed", strconv.FormatBool(on))
	}
}

func (c *eventLog) OnDismount() {
	if c.follow != nil {
		c.follow.Call("disconnect")
	}
	if c.onSeen != nil {
		c.onSeen.Release()
	}
	c.follow, c.onSeen = nil, nil
}

func newEventLog() *eventLog { return &eventLog{} }

func (c *eventLog) Events(v engine.Log) *eventLog                { c.IEvents = v; return c }
func (c *eventLog) Selected(v int) *eventLog                     { c.ISelected = v; return c }
func (c *eventLog) OnSelect(fn func(app.Context, int)) *eventLog { c.onSelect = fn; return c }

func (c *eventLog) Render() app.UI {
	countRender("eventLog")
	evs := c.IEvents
	from := model.LogWindowStart(evs.Len())
	marked := c.ISelected // in the blocks on the server; on the rows in the page in the browser
	if app.IsClient {
		marked = 0
	}
	blocks := c.blocks.render(evs, marked)
	return app.Section().Class("panel").Aria("labelledby", "log-h").Body(
		app.H2().ID("log-h").Text("Event log"),
		app.P().Class("hint").Body(
			app.Text(fmt.Sprintf("%d events. Select one to see the pool at that step. ", evs.Len())),
			app.If(c.ISelected > 0, func() app.UI {
				return app.Button().ID("log-latest").Type("button").Class("link").Text("Back to the latest step").
					OnClick(safe(func(ctx app.Context, e app.Event) { c.onSelect(ctx, 0) }))
			}),
			app.If(from > 0, func() app.UI {
				return app.Text(fmt.Sprintf("(the first %d are not listed)", from))
			}),
		),
		app.Div().Class("log-wrap").OnClick(safe(c.onLogClick)).Body(
			app.Div().ID("log").Class("log").Body(
				app.Range(blocks).Slice(func(i int) app.UI { return app.Raw(blocks[i]) }),
			),
		),
	)
}

// onLogClick selects the clicked row's step.
func (c *eventLog) onLogClick(ctx app.Context, e app.Event) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return
	}
	row := target.Call("closest", "#log .log-btn")
	if !row.Truthy() {
		return
	}
	if step, err := strconv.Atoi(row.Get("dataset").Get("step").String()); err == nil {
		c.onSelect(ctx, step)
	}
}

func reqLabel(id int, tenant string) string {
	if id == 0 {
		return ""
	}
	return "r" + strconv.Itoa(id) + " · " + tenant
}
