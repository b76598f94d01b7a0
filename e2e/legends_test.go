package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// marks are the page's strike-throughs, dashed or dotted boxes and badges,
// by the class that draws them, each with the words of the legend entry
// that explains it; self: the mark says it in its own words. A mark the
// walk finds whose class is not here fails it.
var marks = []mark{
	{"state-stale", "stale", false},
	{"state-leaked", "LEAKED", false},
	{"mixed", "another writer", false},
	{"in-window", "read window", false},
	{"stage-later", "later", false},
	{"stage-never", "struck through", false},
	{"log-poll", "KVPoll", false},
	{"rdma", "RDMA link", true},
	{"seg-leaked", "LEAKED", true},
	{"region-stale", "stale", true}, // a pool map's span: its swatch, the map's checkerboard
	{"replay-drop", "drop a file", true},
}

type mark struct {
	Class string `json:"class"`
	Words string `json:"words"`
	Self  bool   `json:"self"`
}

// markWalkJS finds every visible mark outside a legend by its look — a
// line through its text, a dashed or dotted border or outline, stripes, or
// a bordered inline badge — and reports each with the class it was drawn
// by (each of marks' classes on it or above it) and whether its panel has
// the legend entry's words.
const markWalkJS = `((marks) => {
	const out = new Map();
	const dashed = (st, w) => (st === "dashed" || st === "dotted") && parseFloat(w) > 0;
	for (const el of document.querySelectorAll("#playground *")) {
		if (!el.checkVisibility() || el.closest(".legend")) continue;
		const s = getComputedStyle(el);
		const look = s.textDecorationLine.includes("line-through") ? "a strike-through"
			: ["Top", "Right", "Bottom", "Left"].some(d => dashed(s["border" + d + "Style"], s["border" + d + "Width"])) ? "a dashed border"
			: dashed(s.outlineStyle, s.outlineWidth) ? "a dashed outline"
			: s.backgroundImage !== "none" ? "stripes"
			: s.display.startsWith("inline") && parseFloat(s.borderTopWidth) > 0 && !el.matches("button, input, select, textarea, label") ? "a badge"
			: "";
		if (!look) continue;
		const panel = el.closest(".panel");
		const where = !panel ? "no panel" : panel.id ? "#" + panel.id : panel.className;
		const on = marks.filter(m => el.closest("." + m.class));
		if (!on.length) {
			out.set("unexplained " + look + ": " + el.tagName.toLowerCase() + "." + String(el.className).split(" ").join(".") + " in " + where, false);
		}
		const legend = panel ? [...panel.querySelectorAll(".legend li")].filter(li => li.checkVisibility()).map(li => li.textContent).join("\n") : "";
		for (const m of on) {
			out.set(m.class + " in " + where, (m.self ? el.closest("." + m.class).textContent : legend).includes(m.words));
		}
	}
	return Object.fromEntries(out);
})`

// Every strike-through, dashed box or badge has a legend in words within
// the panel that shows it, on the demo (at its latest step, an earlier
// one, and compared), a preset whose transfer fails and one at real scale.
func TestEveryMarkHasALegendInItsPanel(t *testing.T) {
	t.Parallel()
	b := openBench(t)
	js, err := json.Marshal(marks)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	walk := func(where string) {
		t.Helper()
		for mark, explained := range evalJS[map[string]bool](b, markWalkJS+`(`+string(js)+`)`) {
			assert.True(t, explained, "%s: %s without its legend entry in its panel", where, mark)
			seen[mark] = true
		}
	}
	walk("the demo")
	scrubTo(b, 16)
	waitLate(b)
	walk("the demo at step 16")
	clickSel(b, "#compare-toggle")
	waitFor(b, "the comparison", jsExists("#compare .grid-mini .cell"))
	walk("the demo compared")
	clickSel(b, "#compare-toggle")
	for _, p := range []string{"door-errored", "glm-launch"} {
		choosePreset(b, p)
		waitLate(b)
		walk(p)
	}
	t.Logf("marks walked: %v", seen)
	for _, m := range marks {
		found := false
		for k := range seen {
			found = found || strings.HasPrefix(k, m.Class+" in ")
		}
		assert.True(t, found, "the walk meets %s", m.Class)
	}
}
