package dom

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Handlers of list items are methods that read their subject from the
// element: go-app keeps the handler first mounted on a reused element when a
// new one has the same code pointer, so a closure over the item would act on
// a stale one.

// DataInt reads an integer data attribute of the element that fired.
func DataInt(ctx app.Context, key string) int {
	n, _ := strconv.Atoi(ctx.JSSrc().Get("dataset").Get(key).String())
	return n
}

// Value reads the value of the element that fired an event.
func Value(ctx app.Context) string { return ctx.JSSrc().Get("value").String() }

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
