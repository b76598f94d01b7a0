// Package widget is what every room of the page shares: the form fields
// and the attributes go-app would prerender wrong (attrs.go, fields.go),
// the wrapper that contains a panic in a child's handler and hands it to
// the page (safe.go), the render counter the tests read (rendercount.go),
// the test hooks' armed panics (testpanic*.go) and two text helpers.
//
// It holds no component and imports no room; every room imports it.
package widget
