package web

import (
	"html"
	"strconv"
	"strings"

	"kvleak/engine"
)

// joinLogBlock wraps the rows of the events from step first to last,
// already rendered (logRowHTML), in their <ol>. The log is a few such blocks of model.LogBlock events, each
// one raw element: a Send re-renders only the newest block (logBlocks).
// Every value is HTML-escaped (tenant names are text). Clicks are handled
// on the wrapper (eventLog.onLogClick).
func joinLogBlock(firstStep, lastStep int, rows []string) string {
	if len(rows) == 0 {
		return `<ol class="log-block"></ol>`
	}
	first, last := strconv.Itoa(firstStep), strconv.Itoa(lastStep)
	return `<ol class="log-block" start="` + first + `" aria-label="Events ` + first + `–` + last + `">` +
		strings.Join(rows, "") + `</ol>`
}

// logRowHTML renders one event as an <li>, piece by piece (concatenating
// first allocated each row twice).
func logRowHTML(ev *engine.Event, selected bool) string {
	step := strconv.Itoa(ev.Step)
	pressed := "false"
	var b strings.Builder
	b.Grow(320 + len(ev.Text))
	w := b.WriteString
	w(`<li class="log-row half-`)
	w(html.EscapeString(string(ev.Half)))
	if selected {
		w(` selected`)
		pressed = "true"
	}
	w(`" data-step="`)
	w(step)
	w(`" data-stage="`)
	w(html.EscapeString(string(ev.Stage)))
	w(`"><button type="button" class="log-btn" data-step="`)
	w(step)
	w(`" aria-pressed="`)
	w(pressed)
	w(`"><span class="log-step">`)
	w(step)
	w(`</span><span class="log-req">`)
	w(html.EscapeString(reqLabel(ev.Request, ev.Tenant)))
	w(`</span><code class="log-stage">`)
	w(html.EscapeString(string(ev.Stage)))
	w(`</code><span class="log-text">`)
	if ev.Poll != "" {
		w(`<span class="log-poll" data-poll="`)
		w(html.EscapeString(string(ev.Poll)))
		w(`">KVPoll.`)
		w(html.EscapeString(string(ev.Poll)))
		w(`</span> `)
	}
	w(html.EscapeString(ev.Text))
	w(`</span></button></li>`)
	return b.String()
}
