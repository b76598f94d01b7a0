// Package share is sharing and embedding: the share panel (copy a link, an
// embed snippet, export and import the run, export its trace), the
// snippet's options, and the compact embed's caption and its two controls.
// The page's embed layout itself is the page's (web/embedview.go).
package share
