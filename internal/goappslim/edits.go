package goappslim

import (
	"fmt"
	"strings"
)

// replacement is one textual edit of a pinned file: old must occur exactly
// once (the file's SHA-256 is pinned too, so it always does for v10.1.11).
type replacement struct{ old, new string }

// replacements keep three client features the playground does not use out
// of the wasm, each with what it alone linked (brotli sizes from the README):
//   - uuid.NewString (DeviceID, the broadcast-state store id) linked the
//     uuid module and, through it, crypto/rand, math/big, md5 and sha1;
//     newUUID (slim.go.txt) makes the same random UUID from the browser's
//     crypto.getRandomValues, the source crypto/rand reads in a browser.
//   - regexp routes (RouteWithRegexp) linked regexp: the router matches its
//     list on every navigation, empty or not. The copy's routes panic on
//     registration; the playground registers plain routes only.
//   - encryption (Context.Encrypt/Decrypt, State.PersistWithEncryption)
//     linked crypto/aes, crypto/cipher and crypto/rand; crypto.go is left
//     out and slim.go.txt's encrypt/decrypt return an error.
//
// TestUIUsesNoneOfTheRemovedFeatures keeps the playground off them.
var replacements = map[string][]replacement{
	"pkg/app/context.go": {
		{"\t\"github.com/google/uuid\"\n", ""},
		{"id = uuid.NewString()", "id = newUUID()"},
	},
	"pkg/app/state.go": {
		{"\t\"github.com/google/uuid\"\n", ""},
		{"m.broadcastStoreID = uuid.NewString()", "m.broadcastStoreID = newUUID()"},
	},
	"pkg/app/route.go": {
		{"import (\n\t\"regexp\"\n\t\"sync\"\n)", "import \"sync\""},
		{"regexp:       regexp.MustCompile(pattern),", "regexp:       compileRoute(pattern),"},
		{"regexp       *regexp.Regexp", "regexp       *routeRegexp"},
	},
}

// replace applies rel's replacements to data.
func replace(rel string, data []byte) ([]byte, error) {
	s := string(data)
	for _, r := range replacements[rel] {
		if n := strings.Count(s, r.old); n != 1 {
			return nil, fmt.Errorf("%s: %q occurs %d times, not once: check internal/goappslim's edits", rel, r.old, n)
		}
		s = strings.Replace(s, r.old, r.new, 1)
	}
	return []byte(s), nil
}
