package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The canvas is drawn in Go, so it follows the reader's colour scheme by
// asking for it, as the stylesheet does with a media query.

const darkQuery = "(prefers-color-scheme: dark)"

// darkScheme reports whether the reader asked for dark colours.
func darkScheme() bool {
	if !app.Window().Get("matchMedia").Truthy() {
		return false
	}
	return app.Window().Call("matchMedia", darkQuery).Get("matches").Bool()
}

// onSchemeChange calls fn when the reader's colour scheme changes. It
// returns a stop function.
func onSchemeChange(fn func()) func() {
	if !app.Window().Get("matchMedia").Truthy() {
		return func() {}
	}
	mq := app.Window().Call("matchMedia", darkQuery)
	cb := app.FuncOf(func(app.Value, []app.Value) any { fn(); return nil })
	mq.Call("addEventListener", "change", cb)
	return func() {
		mq.Call("removeEventListener", "change", cb)
		cb.Release()
	}
}
