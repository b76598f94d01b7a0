package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// heightMessage is the postMessage type an embedding page listens for.
const heightMessage = "kvleak:height"

// reportHeight tells the embedding page the content's height whenever it
// changes, so that it can size the iframe. It returns a stop function, or
// nil where there is nobody to tell.
func reportHeight() func() {
	win := app.Window()
	parent := win.Get("parent")
	if !parent.Truthy() || !win.Get("ResizeObserver").Truthy() {
		return nil
	}
	body := win.Get("document").Get("body")
	post := app.FuncOf(func(this app.Value, args []app.Value) any {
		h := body.Get("scrollHeight").Int()
		parent.Call("postMessage", map[string]any{"type": heightMessage, "height": h}, "*")
		return nil
	})
	obs := win.Get("ResizeObserver").New(post)
	obs.Call("observe", body)
	return func() {
		obs.Call("disconnect")
		post.Release()
	}
}
