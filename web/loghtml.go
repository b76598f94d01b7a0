package web

import (
	"html"
	"strconv"
	"strings"

	"kvleak/engine"
)

// logHTML renders the listed events as one element: up to 300 rows are one
// innerHTML swap rather than 1,500 diffed nodes, which kept a Send over the
// one-frame budget. Every value is HTML-escaped (tenant names are text).
// Clicks are handled on the wrapper (onLogClick).
func logHTML(evs []engine.Event, selected int) string {
	var b strings.Builder
	b.Grow(len(evs) * 300)
	b.WriteString(`<ol id="log" class="log">`)
	for _, ev := range evs {
		step := strconv.Itoa(ev.Step)
		cls := "log-row half-" + string(ev.Half)
		pressed := "false"
		if ev.Step == selected {
			cls, pressed = cls+" selected", "true"
		}
		b.WriteString(`<li class="` + html.EscapeString(cls) + `" data-step="` + step + `" data-stage="` + html.EscapeString(string(ev.Stage)) + `">`)
		b.WriteString(`<button type="button" class="log-btn" data-step="` + step + `" aria-pressed="` + pressed + `">`)
		b.WriteString(`<span class="log-step">` + step + `</span>`)
		b.WriteString(`<span class="log-req">` + html.EscapeString(reqLabel(ev.Request, ev.Tenant)) + `</span>`)
		b.WriteString(`<code class="log-stage">` + html.EscapeString(string(ev.Stage)) + `</code>`)
		b.WriteString(`<span class="log-text">` + html.EscapeString(ev.Text) + `</span>`)
		b.WriteString(`</button></li>`)
	}
	b.WriteString(`</ol>`)
	return b.String()
}
