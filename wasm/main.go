//go:build js && wasm

// Command wasm is the playground's browser entry point, compiled to
// build/app.wasm by `make wasm`.
package main

import (
	"runtime/debug"

	"kvleak/web"
	"kvleak/web/dom"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// gcPercent trades a little CPU for memory: wasm memory never shrinks, and
// the heap reaches its live data times 1 + gcPercent/100 between
// collections. With Go's default (100), and then with 50 once the log's
// sentences grew, 1,000 requests at a 681,280-page pool grew it past the
// pool's own size, the bench's budget; at 35 they stay under it, and a Send
// measured no slower.
const gcPercent = 35

func main() {
	debug.SetGCPercent(gcPercent)
	// Same routes as the generator, so the wasm app takes over the
	// prerendered page instead of showing "not found".
	web.Routes()
	dom.GuardStorage()
	app.RunWhenOnBrowser()
}
