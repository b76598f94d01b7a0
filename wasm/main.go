//go:build js && wasm

// Command wasm is the playground's browser entry point, compiled to
// build/app.wasm by `make wasm`.
package main

import (
	"kvleak/web"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

func main() {
	// Same routes as the generator, so the wasm app takes over the
	// prerendered page instead of showing "not found".
	web.Routes()
	web.GuardStorage()
	app.RunWhenOnBrowser()
}
