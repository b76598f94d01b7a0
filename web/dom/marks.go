package dom

import (
	"html"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// Marks is the scrubber's marks as an island: where requests start and
// where they end, placed by the model (model.PlaceMarks), one raw list.
// Each item is placed by a class per percent of the timeline (app.css):
// the page's CSP refuses inline styles. Labels are escaped: they hold
// tenant names, which are text.
//
// A change is patched item by item: a Send moves most marks by a percent
// or regroups them, and replacing the list made the frame parse, style,
// lay out and paint every mark anew. Past MaxPatchCalls calls the list is
// built again.
var Marks Patcher[model.PlacedMark] = marks{}

type marks struct{}

// MaxPatchCalls is the most calls into JavaScript a patch of the marks
// makes. A Send moves most marks by a percent, a class each, which a patch
// does at less than a new list costs; at 1,000 requests a Send also
// regroups nearly all 202 items, three calls each, and so many calls cost
// more than the new list.
const MaxPatchCalls = 128

func (marks) Layout() Layout { return Layout{Resize: true, MaxCalls: MaxPatchCalls} }

func (marks) Block(first, n, gen int) (string, string) {
	return `<ol class="marks" aria-label="Where requests start and end"` + Gen(gen) + `>`, `</ol>`
}

// Item writes one item. A tick's label, hidden by app.css, stays in the
// list for screen readers and in its title for a pointer.
func (marks) Item(b *strings.Builder, i int, m model.PlacedMark) {
	label := html.EscapeString(m.Label)
	b.WriteString(`<li class="`)
	b.WriteString(markClass(m))
	b.WriteString(`" title="`)
	b.WriteString(label)
	b.WriteString(`">`)
	b.WriteString(label)
	b.WriteString(`</li>`)
}

// Change sets the item's class where its key differs (comparing keys
// spares building both strings at every Send), and its title and text
// where its label does.
func (marks) Change(was, now model.PlacedMark) Change {
	var c Change
	if classKey(now) != classKey(was) {
		c.Attrs = append(c.Attrs, Attr{"class", markClass(now)})
	}
	if now.Label != was.Label {
		c.Attrs = append(c.Attrs, Attr{"title", now.Label})
		c.Inner, c.SetInner = html.EscapeString(now.Label), true
	}
	return c
}

// MarksHTML is the list of marks as a fresh render writes it.
func MarksHTML(m []model.PlacedMark) string { return Fresh(Marks, m)[0] }

// markClass is m's row, place and look: a tick where its label does not
// fit, or fits on a wide track only (app.css shows it there), a leak's
// marked by a sign as well as its colour.
func markClass(m model.PlacedMark) string {
	end, look, leak, right := "", " mark-tick", "", ""
	if m.End {
		end = " mark-end"
	}
	switch {
	case m.Shown:
		look = ""
	case m.Wide:
		look = " mark-wide"
	}
	if m.Leak {
		leak = " mark-leak"
	}
	if m.At >= model.LabelFromRight {
		right = " mark-right"
	}
	return "mark" + end + look + leak + right + " at-" + strconv.Itoa(m.At)
}

// classKey is what markClass reads: marks with the same key have the same
// class.
func classKey(m model.PlacedMark) model.PlacedMark {
	return model.PlacedMark{At: m.At, End: m.End, Shown: m.Shown, Wide: m.Wide, Leak: m.Leak}
}
