package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// heightMessage is the postMessage type an embedding page listens for.
const heightMessage = "kvleak:height"

// renderCaption heads the compact embed view.
func (p *playground) renderCaption() app.UI {
	name := "Custom scenario"
	if pr, ok := engine.PresetBySlug(p.s.preset); ok {
		name = pr.Name
	}
	return app.Header().Class("caption").Body(
		app.P().Body(
			app.Strong().Text("KV-cache leak playground — "+name+". "),
			app.A().ID("open-full").Href("?"+p.query(false, false)).Target("_blank").Rel("noopener").
				Text("Open in the full playground ↗"),
		),
	)
}

// reportHeight tells the embedding page the content's height whenever it
// changes, so that it can size the iframe. It returns a stop function.
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
