package web

import (
	"slices"

	"kvleak/engine"
	"kvleak/web/model"
)

// logBlocks is the listed window of the log as HTML blocks (joinLogBlock),
// kept from render to render: a Send renders only its new rows and joins
// the newest block again; a new selection, the one or two blocks it moves
// between. A row is rendered once, unselected; the selected one on demand
// (the prerender's: in the browser the page marks it, eventlog.go).
// go-app compares a raw element's string, so an unchanged block is left
// alone in the page.
type logBlocks struct {
	first  *engine.Event // identifies the log the rows belong to
	from   int           // the event index of rows[0]
	rows   []string      // the listed events' rows, unselected
	blocks []logBlockView
}

type logBlockView struct {
	first, n int // its events: evs.At(first) to evs.At(first+n-1)
	selected int // the selected step if in the block, else 0
	html     string
}

// logGapHTML holds the place of a block the window has left (logPlacesFrom).
const logGapHTML = `<ol class="log-block" hidden></ol>`

// logPlacesFrom is the first event of the block that has the log's first
// child, for a window that lists the events from start. go-app diffs
// children by position: with the oldest listed block always first, each
// time the window moved on (once per model.LogBlock events past
// model.MaxLogRows) every block took the place of the next and was
// replaced, and all 300 rows were parsed, styled and laid out again after
// the paint. Instead each block keeps its place and the blocks the window
// has left stay as empty ones (logGapHTML) until the window has moved on
// by all of model.MaxLogRows: the blocks move once per MaxLogRows events.
func logPlacesFrom(start int) int {
	const span = model.MaxLogRows / model.LogBlock * model.LogBlock
	return start / span * span
}

// render is the HTML of the listed events of evs (model.LogWindowStart)
// with step selected, after the places of the blocks the window has left
// (logPlacesFrom).
func (l *logBlocks) render(evs engine.Log, selected int) []string {
	start := model.LogWindowStart(evs.Len())
	var first *engine.Event
	if evs.Len() > 0 {
		first = evs.At(0)
	}
	if l.first != first || l.from+len(l.rows) > evs.Len() {
		*l = logBlocks{first: first, from: start}
	}
	if l.from < start { // the window moved: drop the rows it left
		l.rows, l.from = slices.Clone(l.rows[min(start-l.from, len(l.rows)):]), start
	}
	for i := l.from + len(l.rows); i < evs.Len(); i++ {
		l.rows = append(l.rows, logRowHTML(evs.At(i), false))
	}
	kept := l.blocks
	l.blocks = nil
	out := []string{}
	for first := logPlacesFrom(start); first < start; first += model.LogBlock {
		out = append(out, logGapHTML)
	}
	for first := start; first < evs.Len(); first += model.LogBlock {
		v := logBlockView{first: first, n: min(model.LogBlock, evs.Len()-first)}
		if selected > first && selected <= first+v.n {
			v.selected = selected
		}
		if i := slices.IndexFunc(kept, func(k logBlockView) bool { return k.first == first && k.n == v.n && k.selected == v.selected }); i >= 0 {
			v.html = kept[i].html
		} else {
			rows := l.rows[first-l.from : first-l.from+v.n]
			if v.selected > 0 {
				rows = slices.Clone(rows)
				rows[v.selected-1-first] = logRowHTML(evs.At(v.selected-1), true)
			}
			v.html = joinLogBlock(first+1, first+v.n, rows)
		}
		l.blocks = append(l.blocks, v)
		out = append(out, v.html)
	}
	return out
}
