// Package model is the playground's state without any go-app in it: the
// session (the run, the form's fields and the selected step), the one table
// of fields that the form, the session and the permalink codec share, the
// link codec, number parsing and the view models the components render.
// The compiler keeps it plain Go: it imports engine and the standard
// library only, and is tested natively.
//
// A component never reaches into a Session: the page component calls its
// methods (the changes) and hands the views (Settings, Request, Response,
// Grid, Metrics, Compare, Lingering) down as inputs.
package model
