// Package model is the playground's state without any go-app in it: the
// session (the run, the form's fields and the selected step), the table of
// fields the form shows (each setting's key and place in the config are
// package permalink's, which the command shares), the link as the page
// opens it (a run and how it is shown) and the view models the components
// render. The compiler keeps it plain Go: it imports the engine and the
// packages the command shares (permalink, deploycheck, replay, challenge)
// and the standard library only, and is tested natively.
//
// A component never reaches into a Session: the page component calls its
// methods (the changes) and hands the views (Settings, Request, Response,
// Grid, Metrics, Compare, Lingering) down as inputs.
package model
