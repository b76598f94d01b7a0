package dom

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// ClassesScript is the page's head script (the generator hashes it into
// the CSP) that defines the function a patch sets its elements' classes
// through: one call for all of them, not one across the wasm's boundary
// each, which at ~440 a scrubber move at glm-launch cost more than the
// browser's own work on them (docs/performance.md). The function takes an
// island's root, its items to a block (Layout.Per) and the patch's classes
// as text: an item's index, a newline, its class, a newline, and so on.
// Patch checks the blocks it names before the call.
const ClassesScript = `<script>window.kvleakClasses = function (root, per, text) {
  var parts = text.split("\n");
  for (var i = 0; i + 1 < parts.length; i += 2) {
    var n = +parts[i];
    var el = per > 0 ? root.children[(n / per) | 0].children[n % per] : root.children[n];
    el.className = parts[i + 1];
  }
};</script>`

// classBatch gathers the classes of a patch for one call of the page's
// function (ClassesScript).
type classBatch struct{ text []byte }

// classesFn is the page's function, looked up once: undefined where the
// head's script did not run (a host whose CSP lacks its hash), where a
// patch sets each class itself.
var classesFn = func() func() app.Value {
	var fn app.Value
	return func() app.Value {
		if fn == nil {
			fn = app.Window().Get("kvleakClasses")
		}
		return fn
	}
}()

func (b *classBatch) add(i int, class string) {
	b.text = strconv.AppendInt(b.text, int64(i), 10)
	b.text = append(b.text, '\n')
	b.text = append(b.text, class...)
	b.text = append(b.text, '\n')
}

// send sets the gathered classes and empties the batch.
func (b *classBatch) send(root app.Value, per int) {
	if len(b.text) > 0 {
		classesFn().Invoke(root, per, string(b.text))
	}
	b.text = b.text[:0]
}
