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

// JumpTo brings the panel of the heading with id into view, at the top of
// the screen, and the focus to the heading (it has tabindex -1): a way from
// where the reader is to a panel far away, that a screen reader follows.
// Without motion under prefers-reduced-motion.
func JumpTo(id string) {
	h := app.Window().GetElementByID(id)
	if !h.Truthy() {
		return
	}
	panel := h.Call("closest", "section")
	if !panel.Truthy() {
		panel = h
	}
	behavior := "smooth"
	if ReducedMotion() {
		behavior = "auto"
	}
	panel.Call("scrollIntoView", map[string]any{"block": "start", "behavior": behavior})
	h.Call("focus", map[string]any{"preventScroll": true})
}
