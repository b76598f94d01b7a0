// Package web is the playground's page, built with go-app v10: the adapter
// that turns the state model (web/model, plain Go) into elements. It
// computes no rule of its own; every number comes from the engine through
// the model.
//
// The page (page.go) keeps the session and the URL, and builds itself from
// rooms, one package each, in the order a reader meets them:
//
//	tour/         the intro, the guided tour's card, the incident's timeline, the sources
//	run/          the verdict, the stepper, the scrubber, the pipeline, the comparison,
//	              the request form and the line under Send, the transcript, the event log
//	pool/         the two servers' pools: decode's grid, table or map, prefill's beside it
//	settings/     the scenario picker, the settings, what the door retires
//	share/        share, embed, export and import; the compact embed's caption and bar
//	experiments/  the launch tests, the lingering requests, the metrics, Prometheus' text
//	deploy/       the check of a real deployment
//	replaypanel/  a request log replayed through both doors: how many responses leaked
//	challenge/    capture the flag: the open challenge beside the form, the ladder under the settings
//	widget/       what the rooms share: fields, safe handlers, the render counter
//
// A room's components are made by exported constructors (run.NewStepper()),
// get their inputs through chainable setters (exported Ixxx fields) and keep
// their own state in unexported fields; what the reader did goes up through
// callbacks, which all end in the page's apply (apply.go). A room imports
// the model, web/dom and web/widget, never another room nor this package.
// docs/where-things-live.md maps every file.
//
// The components render elements only. What is done to the document outside
// go-app's diff — raw HTML patched in place, work after the paint, the
// address bar, storage, keys, focus, the canvas — is package web/dom's,
// reached through its small API; web/dom never imports web.
//
// The design decisions (what renders in the click's task and what after the
// paint, the raw HTML patched in place, delegated events, contained panics,
// when the wasm's go-app renders) are in docs/design.md, each with the file
// that implements it.
package web
