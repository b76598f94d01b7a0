package replaypanel

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// safe contains a panic in one of the panel's handlers, as the page's
// own handlers are contained (web/crash.go): a Go panic would end the
// wasm. The panel says so and the page goes on.
func (c *Panel) safe(h app.EventHandler) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		defer func() {
			if r := recover(); r != nil {
				c.running = false
				c.msg = fmt.Sprintf("The replay panel stopped on a bug (%v); the rest of the page goes on.", r)
				app.Log("kvleak: replay panel: recovered:", r)
			}
		}()
		h(ctx, e)
	}
}
