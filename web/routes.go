package web

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Routes registers the playground's pages. The wasm main and the static site
// generator both call it, so the prerendered HTML and the app agree.
func Routes() {
	app.Route("/", func() app.Composer { return newPlayground() })
}
