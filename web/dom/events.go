package dom

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What an event's element says. A list item's handler reads its subject
// from the element (a data attribute), never from a closure over the item,
// which go-app may keep stale (the package doc).

// DataInt reads an integer data attribute of the element that fired.
func DataInt(ctx app.Context, key string) int {
	n, _ := strconv.Atoi(Data(ctx, key))
	return n
}

// Data reads a data attribute of the element that fired.
func Data(ctx app.Context, key string) string { return ctx.JSSrc().Get("dataset").Get(key).String() }

// SourceID is the id of the element that fired.
func SourceID(ctx app.Context) string { return ctx.JSSrc().Get("id").String() }

// SetValue writes the value of the element that fired. go-app's virtual DOM
// may already hold that value (a field's normalised text, "681,280" after
// "681280" was typed) and then would not write it back.
func SetValue(ctx app.Context, v string) { ctx.JSSrc().Set("value", v) }

// SyncValue sets the value of the field sel selects under root where it
// differs: a value go-app set while another attribute of the field still
// held it back (a range's max) may have been clamped.
func SyncValue(root app.Value, sel, v string) {
	if in := root.Call("querySelector", sel); in.Truthy() && in.Get("value").String() != v {
		in.Set("value", v)
	}
}

// Value reads the value of the element that fired an event.
func Value(ctx app.Context) string { return ctx.JSSrc().Get("value").String() }

// ValueOf reads the value of the form field of that id.
func ValueOf(id string) string { return app.Window().GetElementByID(id).Get("value").String() }

// SelectText selects the text of the field an event fired on.
func SelectText(ctx app.Context) { ctx.JSSrc().Call("select") }

// Checked reads whether the checkbox that fired an event is checked.
func Checked(ctx app.Context) bool { return ctx.JSSrc().Get("checked").Bool() }

// JumpTo brings the panel of the element with id into view, at the top of
// the screen, and the focus to the element: a way from where the reader is
// to a panel far away, that a screen reader follows. A folded section on
// the way is opened first; a section itself is focused at its summary, and
// an element that takes no focus (a heading) is given tabindex -1.
func JumpTo(id string) {
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return
	}
	for d := el.Call("closest", "details"); d.Truthy(); d = d.Get("parentElement").Call("closest", "details") {
		d.Set("open", true)
	}
	panel := el.Call("closest", "section, details")
	if !panel.Truthy() {
		panel = el
	}
	if el.Get("tagName").String() == "DETAILS" {
		el = el.Call("querySelector", "summary")
	} else if el.Get("tabIndex").Int() < 0 && !el.Call("hasAttribute", "tabindex").Bool() {
		el.Set("tabIndex", -1)
	}
	// One jump, never a smooth scroll: the sections that render only near
	// the viewport (content-visibility: auto, app.css) take their real
	// height as a smooth scroll passes them, and the scroll, aimed before,
	// overshoots — the panel's heading ended above the screen.
	panel.Call("scrollIntoView", map[string]any{"block": "start"})
	el.Call("focus", map[string]any{"preventScroll": true})
}

// FollowJumpLinks makes a link to a part of the page (href="#id") inside
// an element of class "jump" a JumpTo, before go-app's click handler would
// take it for a navigation (which opens the address bar's link again, as a
// new permalink). The address bar keeps the run's link. It returns a stop
// function.
func FollowJumpLinks() func() {
	win := app.Window()
	onClick := app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		t := ev.Get("target")
		if !t.Truthy() || !t.Get("closest").Truthy() {
			return nil
		}
		a := t.Call("closest", `.jump a[href^="#"]`)
		if !a.Truthy() {
			return nil
		}
		ev.Call("preventDefault")
		ev.Call("stopPropagation")
		JumpTo(a.Call("getAttribute", "href").String()[1:])
		return nil
	})
	win.Call("addEventListener", "click", onClick, true)
	return func() {
		win.Call("removeEventListener", "click", onClick, true)
		onClick.Release()
	}
}
