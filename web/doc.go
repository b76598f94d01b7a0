// Package web is the playground's go-app v10 components: the adapter that
// turns the state model (web/model, plain Go) into elements. It computes no
// rule of its own; every number comes from the engine through the model.
//
// One component per file, built like go-app's own docs site: a newXxx()
// constructor, inputs as exported fields (Ixxx) with chainable setters,
// unexported fields for the component's own state. The page keeps the
// session and the URL, and every change goes one way: a child's callback
// ends in apply (apply.go).
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
