package web

import (
	"html"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// timelineMarks is the scrubber's marks: where each request starts and
// where it ends. As its own component it renders when the marks change (a
// Send), not when the scrubber moves; and as one raw element, so that a
// Send builds one string instead of go-app building and diffing an item
// per mark (two per request), most of which move as the timeline grows.
type timelineMarks struct {
	app.Compo

	IMarks []model.TimelineMark
	IOf    int // the steps the scrubber spans
}

func newTimelineMarks() *timelineMarks { return &timelineMarks{} }

func (c *timelineMarks) Marks(v []model.TimelineMark) *timelineMarks { c.IMarks = v; return c }
func (c *timelineMarks) Of(v int) *timelineMarks                     { c.IOf = v; return c }

func (c *timelineMarks) Render() app.UI {
	countRender("timelineMarks")
	return app.Raw(marksHTML(c.IMarks, c.IOf))
}

// marksHTML is the marks' list. Each is placed by a class per percent of
// the timeline (app.css): the page's CSP refuses inline styles. Labels are
// escaped: they hold tenant names, which are text.
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
