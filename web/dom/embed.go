package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// HeightMessage is the postMessage type an embedding page listens for.
const HeightMessage = "kvleak:height"

// ReportHeight tells the embedding page the content's height whenever it
// changes, so that it can size the iframe. It returns a stop function, or
// nil where there is nobody to tell.
func ReportHeight() func() {
	win := app.Window()
	parent := win.Get("parent")
	if !parent.Truthy() || !win.Get("ResizeObserver").Truthy() {
		return nil
	}
	body := win.Get("document").Get("body")
	post := app.FuncOf(func(this app.Value, args []app.Value) any {
		h := body.Get("scrollHeight").Int()
		parent.Call("postMessage", map[string]any{"type": HeightMessage, "height": h}, "*")
		return nil
	})
	obs := win.Get("ResizeObserver").New(post)
	obs.Call("observe", body)
	return func() {
		obs.Call("disconnect")
		post.Release()
	}
}

// OpenLinksOutside makes every link in an embed open in a new tab, before
// go-app's own click handler would navigate the frame: a link in the
// writer's page then shows the full playground beside it instead of
// replacing the embed (go-app leaves a target="_blank" link to the
// browser). It returns a stop function.
func OpenLinksOutside() func() {
	win := app.Window()
	onClick := app.FuncOf(func(this app.Value, args []app.Value) any {
		for el := args[0].Get("target"); el.Truthy(); el = el.Get("parentElement") {
			if el.Get("tagName").String() == "A" {
				el.Set("target", "_blank")
				el.Set("rel", "noopener")
				break
			}
		}
		return nil
	})
	win.Call("addEventListener", "click", onClick, true)
	return func() {
		win.Call("removeEventListener", "click", onClick, true)
		onClick.Release()
	}
}
