package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The canvas is drawn in Go, so it follows the reader's colour scheme by
// asking for it, as the stylesheet does with a media query.

const darkQuery = "(prefers-color-scheme: dark)"

// forcedTheme is the theme ForceTheme last set, "" to follow the reader:
// ForceTheme is the page's one writer of <html data-theme>, so a map's
// drawing need not read the attribute back.
var forcedTheme string

// ForceTheme makes the page light or dark whatever the reader's setting
// (a link's theme=), or follows the setting again for "". The stylesheet
// reads it from <html data-theme>.
func ForceTheme(theme string) {
	root := app.Window().Get("document").Get("documentElement")
	if !root.Truthy() {
		return
	}
	forcedTheme = theme
	if theme == "" {
		root.Call("removeAttribute", "data-theme")
		return
	}
	root.Call("setAttribute", "data-theme", theme)
}

// darkList is the reader's colour scheme as one live MediaQueryList, made
// on first use (undefined where the browser has no matchMedia): a scrub
// draws both maps each move, and a matchMedia call each made a new list.
var darkList app.Value

func darkMedia() app.Value {
	if darkList == nil {
		darkList = app.Undefined()
		if app.Window().Get("matchMedia").Truthy() {
			darkList = app.Window().Call("matchMedia", darkQuery)
		}
	}
	return darkList
}

// DarkScheme reports whether the page shows dark colours: forced by the
// link, or asked for by the reader.
func DarkScheme() bool {
	switch forcedTheme {
	case "dark":
		return true
	case "light":
		return false
	}
	mq := darkMedia()
	return mq.Truthy() && mq.Get("matches").Bool()
}

// OnSchemeChange calls fn when the reader's colour scheme changes. It
// returns a stop function.
func OnSchemeChange(fn func()) func() {
	mq := darkMedia()
	if !mq.Truthy() {
		return func() {}
	}
	cb := app.FuncOf(func(app.Value, []app.Value) any { fn(); return nil })
	mq.Call("addEventListener", "change", cb)
	return func() {
		mq.Call("removeEventListener", "change", cb)
		cb.Release()
	}
}

// Matches reports whether the media query matches, as the stylesheet's
// @media would (false where the browser cannot tell).
func Matches(query string) bool {
	if !app.Window().Get("matchMedia").Truthy() {
		return false
	}
	return app.Window().Call("matchMedia", query).Get("matches").Bool()
}

// ReducedMotion reports the reader's prefers-reduced-motion setting.
func ReducedMotion() bool { return Matches("(prefers-reduced-motion: reduce)") }

// ViewportWidth is the window's width in CSS pixels.
func ViewportWidth() int { return app.Window().Get("innerWidth").Int() }
