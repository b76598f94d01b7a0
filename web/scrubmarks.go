package web

import (
	"html"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// marksHTML is the scrubber's marks: where each request starts and where
// it ends. One raw element: a Send builds one string, and a step reuses it
// (marksCache), which go-app compares and leaves alone, instead of building and
// diffing an item per mark (two per request), most of which move as the
// timeline grows. (As a component of its own the marks would skip a step's
// render too, for 6.5 KB more of raw wasm.) Each is placed by a class per
// percent of the timeline (app.css): the page's CSP refuses inline styles.
// Labels are escaped: they hold tenant names, which are text.
func marksHTML(marks []model.TimelineMark, of int) string {
	var b strings.Builder
	b.Grow(80 + 64*len(marks))
	b.WriteString(`<ol class="marks" aria-label="Where each request starts and ends">`)
	for _, m := range marks {
		b.WriteString(`<li class="mark`)
		if m.End {
			b.WriteString(` mark-end`)
		}
		b.WriteString(` at-`)
		b.WriteString(strconv.Itoa((m.Step - 1) * 100 / max(of-1, 1)))
		b.WriteString(`" data-step="`)
		b.WriteString(strconv.Itoa(m.Step))
		b.WriteString(`">`)
		b.WriteString(html.EscapeString(m.Label))
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ol>`)
	return b.String()
}

// marksCache keeps the marks' list while the timeline keeps its marks (the
// model hands down the same slice until they change) and its length: a
// scrub then compares a kept string instead of building one of two items
// a request.
type marksCache struct {
	marks []model.TimelineMark
	of    int
	html  string
}

func (m *marksCache) get(marks []model.TimelineMark, of int) string {
	same := len(marks) == len(m.marks) && (len(marks) == 0 || &marks[0] == &m.marks[0])
	if !same || of != m.of || m.html == "" {
		m.marks, m.of, m.html = marks, of, marksHTML(marks, of)
	}
	return m.html
}
