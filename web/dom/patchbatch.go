package dom

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// PatchScript is the page's head script (the generator hashes it into the
// CSP) that defines the function a patch sets its elements' classes and
// texts through: one call for all of them, not one across the wasm's
// boundary each, which at ~440 a scrubber move at glm-launch cost more
// than the browser's own work on them (docs/performance.md). The function
// takes an island's root, its items to a block (Layout.Per) and the patch
// as text, three lines an element: the item's index, "c" (its class) or
// "t" (its text), the value. Patch checks the blocks it names first.
const PatchScript = `<script>window.kvleakPatch = function (root, per, text) {
  var parts = text.split("\n");
  for (var i = 0; i + 2 < parts.length; i += 3) {
    var n = +parts[i];
    var el = per > 0 ? root.children[(n / per) | 0].children[n % per] : root.children[n];
    if (parts[i + 1] === "c") el.className = parts[i + 2];
    else el.textContent = parts[i + 2];
  }
};</script>`

// patchBatch gathers a patch's classes and texts for one call of the
// page's function (PatchScript).
type patchBatch struct{ text []byte }

// patchFn is the page's function, looked up once (patchLooked): not a
// function where the head's script did not run (a host whose CSP lacks its
// hash), where a patch sets each class and text itself.
var (
	patchFn     app.Value
	patchLooked bool
)

// batchable reports whether the page's function is there to take value
// (one line of the patch's text).
func batchable(value string) bool {
	if !app.IsClient || strings.Contains(value, "\n") {
		return false
	}
	if !patchLooked {
		fn := app.Window().Get("kvleakPatch")
		if fn.Type() == app.TypeFunction {
			patchFn = fn
		}
		patchLooked = true
	}
	return patchFn != nil
}

// add sets item i's class (what "c") or text ("t") to value.
func (b *patchBatch) add(i int, what, value string) {
	b.text = strconv.AppendInt(b.text, int64(i), 10)
	b.text = append(b.text, '\n')
	b.text = append(b.text, what...)
	b.text = append(b.text, '\n')
	b.text = append(b.text, value...)
	b.text = append(b.text, '\n')
}

// send makes the gathered changes and empties the batch.
func (b *patchBatch) send(root app.Value, per int) {
	if len(b.text) > 0 {
		patchFn.Invoke(root, per, string(b.text))
	}
	b.text = b.text[:0]
}
