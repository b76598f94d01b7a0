package web

import (
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// scrubMarks is the scrubber's marks: where each request starts and where
// it ends, one raw list (marksHTML). As a component of its own it renders
// only when the marks or the timeline's length change, not at every step.
//
// In the browser, a change that keeps the marks on the page and adds some
// (a Send) is patched in place: a mark the longer timeline moves gets its
// new class, the new ones are appended. Replacing the list made the frame
// parse, style, lay out and paint every mark anew, a cost that grew with
// the run: with 64 marks on the page a frame that replaced them took
// 8.2-9.0 ms, one that moved them 5.6-6.3 ms (0.8 ms for an empty frame).
// Any other change renders the list again, as a new generation once it was
// patched, so that the string go-app holds never names a list it does not
// show.
type scrubMarks struct {
	app.Compo

	IMarks []model.TimelineMark
	IOf    int

	html    string               // the list go-app holds
	items   []app.Value          // its items, found once per list (patch)
	onPage  []model.TimelineMark // the marks the list's elements show
	onOf    int                  // for a timeline this long
	gen     int                  // lists rendered after a patch
	patched bool                 // the elements differ from html
	inPlace bool                 // this update was patched: render html as it is
}

func newScrubMarks() *scrubMarks { return &scrubMarks{} }

func (c *scrubMarks) Marks(v []model.TimelineMark) *scrubMarks { c.IMarks = v; return c }
func (c *scrubMarks) Of(v int) *scrubMarks                     { c.IOf = v; return c }

// OnUpdate patches the list when it can (go-app calls it before Render,
// once the new marks are in IMarks and IOf).
func (c *scrubMarks) OnUpdate(ctx app.Context) {
	c.inPlace = app.IsClient && c.Mounted() && c.patch()
}

func (c *scrubMarks) Render() app.UI {
	countRender("scrubMarks")
	if !c.inPlace {
		if c.patched {
			c.gen++
		}
		c.html = marksListHTML(c.IMarks, c.IOf, c.gen)
		c.onPage, c.onOf, c.patched, c.items = c.IMarks, c.IOf, false, nil
	}
	c.inPlace = false
	return app.Raw(c.html)
}

// patch brings the list's elements to IMarks and IOf, if the marks on the
// page are the first of IMarks. It reports whether they show them now. The
// items are kept, not found again: a Send moves most marks, and finding
// each was a call into JavaScript and a value for the collector to finalize.
func (c *scrubMarks) patch() bool {
	p, ok := planMarks(c.onPage, c.onOf, c.IMarks, c.IOf)
	if !ok {
		return false
	}
	list := c.JSValue()
	if list.Get("childElementCount").Int() != len(c.onPage) {
		return false
	}
	if c.items == nil {
		c.items = c.findItems(list, 0)
	}
	for _, m := range p.moved {
		c.items[m.index].Set("className", m.class)
	}
	if p.added != "" {
		list.Call("insertAdjacentHTML", "beforeend", p.added)
		c.items = append(c.items, c.findItems(list, len(c.items))...)
	}
	c.onPage, c.onOf, c.patched = c.IMarks, c.IOf, true
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
	moved []markMove // marks on the page whose class changes
	added string     // the new marks' items, in order
}

type markMove struct {
	index int
	class string
}

// planMarks is the patch from the marks was, on a timeline of wasOf steps,
// to marks on one of of steps; false when marks does not begin with was.
func planMarks(was []model.TimelineMark, wasOf int, marks []model.TimelineMark, of int) (marksPlan, bool) {
	if len(marks) < len(was) || !slices.Equal(marks[:len(was)], was) {
		return marksPlan{}, false
	}
	var p marksPlan
	if of != wasOf {
		for i, m := range was {
			if markAt(m, of) != markAt(m, wasOf) {
				p.moved = append(p.moved, markMove{i, markClass(m, of)})
			}
		}
	}
	var b strings.Builder
	for _, m := range marks[len(was):] {
		writeMark(&b, m, of)
	}
	p.added = b.String()
	return p, true
}

// marksHTML is the list of marks for a timeline of steps steps. Each is
// placed by a class per percent of the timeline (app.css): the page's CSP
// refuses inline styles. Labels are escaped: they hold tenant names, which
// are text.
func marksHTML(marks []model.TimelineMark, of int) string { return marksListHTML(marks, of, 0) }

// marksListHTML is marksHTML for the gen-th list rendered after a patch.
func marksListHTML(marks []model.TimelineMark, of, gen int) string {
	var b strings.Builder
	b.Grow(80 + 64*len(marks))
	b.WriteString(`<ol class="marks" aria-label="Where each request starts and ends"`)
	if gen > 0 {
		b.WriteString(` data-gen="` + strconv.Itoa(gen) + `"`)
	}
	b.WriteString(`>`)
	for _, m := range marks {
		writeMark(&b, m, of)
	}
	b.WriteString(`</ol>`)
	return b.String()
}

func writeMark(b *strings.Builder, m model.TimelineMark, of int) {
	b.WriteString(`<li class="`)
	b.WriteString(markClass(m, of))
	b.WriteString(`" data-step="`)
	b.WriteString(strconv.Itoa(m.Step))
	b.WriteString(`">`)
	b.WriteString(html.EscapeString(m.Label))
	b.WriteString(`</li>`)
}

// markClass places m on a timeline of of steps, by the percent.
func markClass(m model.TimelineMark, of int) string {
	at := " at-" + strconv.Itoa(markAt(m, of))
	if m.End {
		return "mark mark-end" + at
	}
	return "mark" + at
}

// markAt is m's place on a timeline of of steps, in percent.
func markAt(m model.TimelineMark, of int) int { return (m.Step - 1) * 100 / max(of-1, 1) }
