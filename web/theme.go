package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The canvas is drawn in Go, so it follows the reader's colour scheme by
// asking for it, as the stylesheet does with a media query.

const darkQuery = "(prefers-color-scheme: dark)"

// forceTheme makes the page light or dark whatever the reader's setting
// (a link's theme=), or follows the setting again for "". The stylesheet
// reads it from <html data-theme>.
func forceTheme(theme string) {
	root := app.Window().Get("document").Get("documentElement")
	if !root.Truthy() {
		return
	}
	if theme == "" {
		root.Call("removeAttribute", "data-theme")
		return
	}
	root.Call("setAttribute", "data-theme", theme)
}

// darkScheme reports whether the page shows dark colours: forced by the
// link, or asked for by the reader.
func darkScheme() bool {
	if root := app.Window().Get("document").Get("documentElement"); root.Truthy() {
		switch root.Call("getAttribute", "data-theme").String() {
		case "dark":
			return true
		case "light":
			return false
		}
	}
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
