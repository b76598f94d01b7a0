package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// openLinksOutside makes every link in an embed open in a new tab, before
// go-app's own click handler would navigate the frame: a link in the
// writer's page then shows the full playground beside it instead of
// replacing the embed (go-app leaves a target="_blank" link to the
// browser). It returns a stop function.
func openLinksOutside() func() {
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
