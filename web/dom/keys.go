package dom

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ListenKeys calls h for plain presses of keys outside form fields (and,
// for the arrows, outside the pool grid, #grid, which moves its focus with
// them), on the component's goroutine (ctx.Dispatch). It returns a stop
// function.
func ListenKeys(ctx app.Context, keys []string, h func(ctx app.Context, key string)) func() {
	doc := app.Window().Get("document")
	fn := app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() {
			return nil
		}
		switch ev.Get("target").Get("tagName").String() {
		case "INPUT", "SELECT", "TEXTAREA":
			return nil
		}
		key := ev.Get("key").String()
		if !slices.Contains(keys, key) {
			return nil
		}
		if t := ev.Get("target"); strings.HasPrefix(key, "Arrow") && t.Get("closest").Truthy() && t.Call("closest", "#grid").Truthy() {
			return nil
		}
		ev.Call("preventDefault")
		ctx.Dispatch(func(ctx app.Context) { h(ctx, key) })
		return nil
	})
	doc.Call("addEventListener", "keydown", fn)
	return func() {
		doc.Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}
