package web

import (
	"html"
	"strconv"
	"strings"

	"kvleak/engine"
)

// logBlockHTML renders a block of consecutive events as one <ol>. The log
// is a few such blocks of logBlock events, each one raw element: a Send
// re-renders only the newest block (go-app compares a raw element's string
// and leaves an unchanged one alone), where one list of 300 rows was rebuilt
// and re-parsed on every Send. Every value is HTML-escaped (tenant names are
// text). Clicks are handled on the wrapper (onLogClick).
func logBlockHTML(evs []engine.Event, selected int) string {
	if len(evs) == 0 {
		return `<ol class="log-block"></ol>`
	}
	first, last := strconv.Itoa(evs[0].Step), strconv.Itoa(evs[len(evs)-1].Step)
	var b strings.Builder
	b.Grow(len(evs) * 300)
	b.WriteString(`<ol class="log-block" start="` + first + `" aria-label="Events ` + first + `–` + last + `">`)
	for _, ev := range evs {
		writeLogRow(&b, ev, ev.Step == selected)
	}
	b.WriteString(`</ol>`)
	return b.String()
}

// writeLogRow writes one event as an <li>, piece by piece: concatenating
// first allocated each row twice, and a block is rebuilt on every Send.
func writeLogRow(b *strings.Builder, ev engine.Event, selected bool) {
	step := strconv.Itoa(ev.Step)
	pressed := "false"
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
	w(html.EscapeString(ev.Text))
	w(`</span></button></li>`)
}

// logWindowStart is the index of the first listed event of n: the newest
// maxLogRows at most, starting on a block boundary. go-app diffs children
// by position, so a window that slid by one event per event would redraw
// every block on every Send; this one moves once per logBlock events.
func logWindowStart(n int) int {
	if n <= maxLogRows {
		return 0
	}
	return (n - maxLogRows + logBlock - 1) / logBlock * logBlock
}
