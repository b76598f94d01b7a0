package model

import "kvleak/permalink"

// Link is a permalink as the page opens it: the run the codec reads and
// the view its keys ask for, which only the page reads.
type Link struct {
	permalink.LinkState
	View View
}

// DecodeLink reads a permalink as the page opens it: permalink.DecodeLink,
// with the view keys read into View, those before a refusal even when the
// run is refused.
func DecodeLink(raw string) (Link, error) {
	var l Link
	st, err := permalink.DecodeLink(raw, l.View.set)
	l.LinkState = st
	return l, err
}
