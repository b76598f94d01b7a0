package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// jsText is the JavaScript string of s, kept for the short texts a patch
// sets again and again (an attribute's name, a class, a state). A Go
// string handed to a call into JavaScript crosses as a new value every
// time — decoded, and given a finalizer — which a CPU profile of a scrub at
// glm-launch found costlier than the calls themselves. A long text (a
// cell's accessible name) is rarely the same twice and crosses as it is.
func jsText(s string) any {
	if len(s) > maxKeptText || !app.IsClient {
		return s
	}
	if v, ok := keptTexts[s]; ok {
		return v
	}
	if len(keptTexts) >= maxKeptTexts {
		clear(keptTexts)
	}
	v := app.ValueOf(s)
	keptTexts[s] = v
	return v
}

const (
	maxKeptText  = 64
	maxKeptTexts = 4096
)

var keptTexts = map[string]app.Value{}
