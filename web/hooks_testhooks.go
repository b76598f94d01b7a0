//go:build testhooks

package web

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// Test hooks, in the wasm the browser tests build with -tags testhooks and
// never in the shipped one (a test checks its bytes):
//
//	kvleakTest.arm(where)  the next pass through `where` panics: "apply" (a
//	                       change), "views" (a render), "handler" (a child's
//	                       own event handler)
//	kvleakTest.renders()   JSON of the components rendered since the last call
//	kvleakTest.gridHTML()  the grid on screen as a fresh render writes it
//	                       (dom.GridCells), which the page patches in place
//	kvleakTest.logHTML()   the log's blocks as the prerender writes them,
//	                       with the selected row, which the page marks in place
//	kvleakTest.marksHTML() the scrubber's marks as a fresh render writes them
//	                       (dom.MarksHTML), which the page patches in place
//	kvleakTest.settle(f)   calls f once every event the page got before the
//	                       call is handled and its render is on the page:
//	                       go-app handles dispatches in order and runs the
//	                       defers of a frame after its renders
func (p *playground) installTestHooks(ctx app.Context) {
	widget.Renders = map[string]int{}
	hooks := app.Window().Get("Object").New()
	hooks.Set("arm", app.FuncOf(func(this app.Value, args []app.Value) any {
		where := args[0].String()
		ctx.Dispatch(func(ctx app.Context) { widget.Arm(where) }) // on the UI goroutine
		return nil
	}))
	hooks.Set("renders", app.FuncOf(func(this app.Value, args []app.Value) any {
		data, _ := json.Marshal(widget.Renders)
		widget.Renders = map[string]int{}
		return string(data)
	}))
	hooks.Set("gridHTML", app.FuncOf(func(this app.Value, args []app.Value) any {
		g := p.last.pool.Grid
		return strings.Join(dom.Fresh(dom.GridCells(g.Tiles), g.Cells), "")
	}))
	hooks.Set("logHTML", app.FuncOf(func(this app.Value, args []app.Value) any {
		return strings.Join(dom.LogHTML(model.EventsOf(p.late.shown.events), p.late.shown.selected), "")
	}))
	hooks.Set("marksHTML", app.FuncOf(func(this app.Value, args []app.Value) any {
		return dom.MarksHTML(p.last.marks)
	}))
	hooks.Set("settle", app.FuncOf(func(this app.Value, args []app.Value) any {
		done := args[0]
		ctx.Dispatch(func(ctx app.Context) {
			ctx.PreventUpdate() // a wait, not a change: no render of its own
			ctx.Defer(func(app.Context) { done.Invoke() })
		})
		return nil
	}))
	app.Window().Set("kvleakTest", hooks)
}
