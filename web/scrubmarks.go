package web

import (
	"html"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// scrubMarks is the scrubber's marks: where requests start and where they
// end, placed by the model (model.PlaceMarks), one raw list (marksHTML). As
// a component of its own it renders only when the marks change, not at
// every step.
//
// In the browser a change is patched in place, item by item: a Send moves
// most marks by a percent or regroups them, and replacing the list made
// the frame parse, style, lay out and paint every mark anew. Once patched,
// the next list rendered is a new generation, so that the string go-app
// holds never names a list it does not show.
type scrubMarks struct {
	app.Compo

	IMarks []model.PlacedMark

	html    string             // the list go-app holds
	items   []app.Value        // its items, found once per list (patch)
	onPage  []model.PlacedMark // the marks the list's elements show
	gen     int                // lists rendered after a patch
	patched bool               // the elements differ from html
	inPlace bool               // this update was patched: render html as it is
}

func newScrubMarks() *scrubMarks { return &scrubMarks{} }

func (c *scrubMarks) Marks(v []model.PlacedMark) *scrubMarks { c.IMarks = v; return c }

// OnUpdate patches the list when it can (go-app calls it before Render,
// once the new marks are in IMarks).
func (c *scrubMarks) OnUpdate(ctx app.Context) {
	c.inPlace = app.IsClient && c.Mounted() && c.patch()
}

func (c *scrubMarks) Render() app.UI {
	countRender("scrubMarks")
	if !c.inPlace {
		if c.patched {
			c.gen++
		}
		c.html = marksListHTML(c.IMarks, c.gen)
		c.onPage, c.patched, c.items = c.IMarks, false, nil
	}
	c.inPlace = false
	return app.Raw(c.html)
}

// patch brings the list's elements to IMarks and reports whether they show
// them now. The items are kept, not found again: finding each was a call
// into JavaScript and a value for the collector to finalize.
func (c *scrubMarks) patch() bool {
	list := c.JSValue()
	if list.Get("childElementCount").Int() != len(c.onPage) {
		return false
	}
	p := planMarks(c.onPage, c.IMarks)
	if p.calls() > maxPatchCalls {
		return false
	}
	if c.items == nil {
		c.items = c.findItems(list, 0)
	}
	for _, ch := range p.changed {
		item := c.items[ch.index]
		if ch.class != "" {
			item.Set("className", ch.class)
		}
		if ch.label != "" {
			item.Set("title", ch.label)
			item.Set("textContent", ch.label)
		}
	}
	for _, item := range c.items[len(c.items)-p.removed:] {
		item.Call("remove")
	}
	c.items = c.items[:len(c.items)-p.removed]
	if p.added != "" {
		list.Call("insertAdjacentHTML", "beforeend", p.added)
		c.items = append(c.items, c.findItems(list, len(c.items))...)
	}
	c.onPage, c.patched = c.IMarks, true
	return true
}

// findItems is the list's items from the from-th on.
func (c *scrubMarks) findItems(list app.Value, from int) []app.Value {
	all := list.Get("children")
	items := make([]app.Value, all.Length()-from)
	for i := range items {
		items[i] = all.Index(from + i)
	}
	return items
}

// marksPlan is what turns one list of marks into another in place.
type marksPlan struct {
	changed []markChange // items whose class or label changes
	removed int          // items to remove from the end
	added   string       // the new items, in order
}

// markChange is what changes in the index-th item; "" for what stays.
type markChange struct {
	index        int
	class, label string
}

// maxPatchCalls is the most calls into JavaScript a patch makes; a change
// that needs more renders the list again. A Send moves most marks by a
// percent, a class each, which a patch does at less than a new list costs;
// at 1,000 requests a Send also regroups nearly all 202 items, three calls
// each, and so many calls cost more than the new list.
const maxPatchCalls = 128

// calls is how many calls into JavaScript the patch makes.
func (p marksPlan) calls() int {
	n := p.removed
	for _, ch := range p.changed {
		if ch.class != "" {
			n++
		}
		if ch.label != "" {
			n += 2 // title and text
		}
	}
	return n
}

// planMarks is the patch from the items that show was to items that show
// marks: the items both have are changed where they differ, the rest
// removed or added at the end.
func planMarks(was, marks []model.PlacedMark) marksPlan {
	var p marksPlan
	common := min(len(was), len(marks))
	for i := range common {
		o, m := was[i], marks[i]
		var ch markChange
		if classKey(m) != classKey(o) {
			ch.class = markClass(m)
		}
		if m.Label != o.Label {
			ch.label = m.Label
		}
		if ch != (markChange{}) {
			ch.index = i
			p.changed = append(p.changed, ch)
		}
	}
	p.removed = len(was) - common
	var b strings.Builder
	for _, m := range marks[common:] {
		writeMark(&b, m)
	}
	p.added = b.String()
	return p
}

// marksHTML is the list of marks. Each is placed by a class per percent
// of the timeline (app.css): the page's CSP refuses inline styles. Labels
// are escaped: they hold tenant names, which are text.
func marksHTML(marks []model.PlacedMark) string { return marksListHTML(marks, 0) }

// marksListHTML is marksHTML for the gen-th list rendered after a patch.
func marksListHTML(marks []model.PlacedMark, gen int) string {
	var b strings.Builder
	b.Grow(80 + 96*len(marks))
	b.WriteString(`<ol class="marks" aria-label="Where requests start and end"`)
	if gen > 0 {
		b.WriteString(` data-gen="` + strconv.Itoa(gen) + `"`)
	}
	b.WriteString(`>`)
	for _, m := range marks {
		writeMark(&b, m)
	}
	b.WriteString(`</ol>`)
	return b.String()
}

// writeMark writes one item. A tick's label, hidden by app.css, stays in
// the list for screen readers and in its title for a pointer.
func writeMark(b *strings.Builder, m model.PlacedMark) {
	label := html.EscapeString(m.Label)
	b.WriteString(`<li class="`)
	b.WriteString(markClass(m))
	b.WriteString(`" title="`)
	b.WriteString(label)
	b.WriteString(`">`)
	b.WriteString(label)
	b.WriteString(`</li>`)
}

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
// class (comparing keys spares building both strings at every Send).
func classKey(m model.PlacedMark) model.PlacedMark {
	return model.PlacedMark{At: m.At, End: m.End, Shown: m.Shown, Wide: m.Wide, Leak: m.Leak}
}
