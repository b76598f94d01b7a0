package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// listenKeys calls h for the stepper's plain key presses outside form
// fields, on the component's goroutine. It returns a stop function.
func listenKeys(ctx app.Context, h func(ctx app.Context, key string)) func() {
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
		if key != keyBack && key != keyNext && key != keyPlay {
			return nil
		}
		ev.Call("preventDefault")
		ctx.Dispatch(func(ctx app.Context) {
			defer reportPanic(ctx)
			h(ctx, key)
		})
		return nil
	})
	doc.Call("addEventListener", "keydown", fn)
	return func() {
		doc.Call("removeEventListener", "keydown", fn)
		fn.Release()
	}
}
