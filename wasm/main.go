//go:build js && wasm

// Command wasm is the playground's browser entry point, compiled to
// build/app.wasm by `make wasm`.
package main

import (
	"runtime/debug"

	"kvleak/web"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// gcPercent trades a little CPU for memory: wasm memory never shrinks, and
// with Go's default (100) the heap may reach twice the live data — at a
// 681,280-page pool, 1,000 requests grew it past the pool's own size.
const gcPercent = 50

func main() {
	debug.SetGCPercent(gcPercent)
	// Same routes as the generator, so the wasm app takes over the
	// prerendered page instead of showing "not found".
	web.Routes()
	web.GuardStorage()
	app.RunWhenOnBrowser()
}
