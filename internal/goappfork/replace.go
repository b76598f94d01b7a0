package goappfork

import (
	"fmt"
	"strings"
)

// replacement is one exact textual edit: old must occur exactly once, so
// that a go-app whose code moved fails the build instead of shipping its
// own version unnoticed.
type replacement struct{ old, new string }

// apply makes rs in s; what names s and the edit in the error.
func apply(what, s string, rs []replacement) (string, error) {
	for _, r := range rs {
		if n := strings.Count(s, r.old); n != 1 {
			first, _, _ := strings.Cut(strings.TrimSpace(r.old), "\n")
			return "", fmt.Errorf("%s: %q occurs %d times, not once: see %s", what, first, n, upgradeDoc)
		}
		s = strings.Replace(s, r.old, r.new, 1)
	}
	return s, nil
}
