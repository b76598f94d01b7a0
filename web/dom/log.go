package dom

import (
	"html"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// Log is the event log's listed window (model.LogWindowStart) as an
// island: blocks of model.LogBlock rows, each one raw element, kept from
// render to render, so a Send builds only its new rows and the newest
// block again, and a new selection the one or two blocks it moves between.
// Every value is HTML-escaped (tenant names are text). Clicks are handled
// on the log's wrapper.
//
// In the browser the blocks are written without the selection, which is
// marked on the rows in the page (MarkSelectedRow): a step or a scrub then
// sets two rows' class and aria-pressed where it replaced one or two blocks
// of model.LogBlock rows, parsed, styled, laid out and painted anew. The
// prerendered page writes it into the blocks.
type Log struct {
	rows Island[logRow]
	// The listed rows of the last two renders, taking turns: the island
	// keeps a render's until the next, which it compares with them.
	items [2][]logRow
	turn  int

	follow app.Value // the IntersectionObserver on the selected row
	onSeen app.Func  // its callback
}

// logRow is one listed event, and whether its row is written selected.
type logRow struct {
	ev       model.LogRow
	selected bool
}

type logRows struct{}

// logGapHTML holds the place of a block the window has left (logPlacesFrom).
const logGapHTML = `<ol class="log-block" hidden></ol>`

func (logRows) Layout() Layout { return Layout{Per: model.LogBlock, Gap: logGapHTML} }

// Block is the <ol> of the events from the first-th on, their steps
// counted from 1.
func (logRows) Block(first, n, gen int) (string, string) {
	from, to := strconv.Itoa(first+1), strconv.Itoa(first+n)
	return `<ol class="log-block" start="` + from + `" aria-label="Events ` + from + `–` + to + `"` + Gen(gen) + `>`, `</ol>`
}

func (logRows) Item(b *strings.Builder, _ int, r logRow) { writeLogRow(b, r.ev, r.selected) }

// Blocks is the markup of the listed events of evs with step selected (0:
// none), after the places of the blocks the window has left
// (logPlacesFrom).
func (l *Log) Blocks(evs model.Events, selected int) []string {
	start := model.LogWindowStart(evs.Len())
	l.turn ^= 1
	rows := slices.Grow(l.items[l.turn][:0], evs.Len()-start)
	for i := start; i < evs.Len(); i++ {
		rows = append(rows, logRow{evs.Row(i), i+1 == selected})
	}
	l.items[l.turn] = rows
	return l.rows.RenderAt(logRows{}, logPlacesFrom(start), start, rows)
}

// LogHTML is the log's blocks as the prerender writes them, with the
// selected row.
func LogHTML(evs model.Events, selected int) []string { return (&Log{}).Blocks(evs, selected) }

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

// writeLogRow writes one event as an <li>, piece by piece (concatenating
// first allocated each row twice).
func writeLogRow(b *strings.Builder, ev model.LogRow, selected bool) {
	step := strconv.Itoa(ev.Step)
	pressed := "false"
	b.Grow(320 + len(ev.Text))
	w := b.WriteString
	w(`<li class="log-row half-`)
	w(html.EscapeString(ev.Half))
	if selected {
		w(` selected`)
		pressed = "true"
	}
	w(`" data-step="`)
	w(step)
	w(`" data-stage="`)
	w(html.EscapeString(ev.Stage))
	w(`"><button type="button" class="log-btn" data-step="`)
	w(step)
	w(`" aria-pressed="`)
	w(pressed)
	w(`"><span class="log-step">`)
	w(step)
	w(`</span><span class="log-req">`)
	w(html.EscapeString(reqLabel(ev.Request, ev.Tenant)))
	w(`</span><code class="log-stage">`)
	w(html.EscapeString(ev.Stage))
	w(`</code><span class="log-text">`)
	if ev.Poll != "" {
		w(`<span class="log-poll" data-poll="`)
		w(html.EscapeString(ev.Poll))
		w(`">KVPoll.`)
		w(html.EscapeString(ev.Poll))
		w(`</span> `)
	}
	w(html.EscapeString(ev.Text))
	w(`</span></button></li>`)
}

func reqLabel(id int, tenant string) string {
	if id == 0 {
		return ""
	}
	return "r" + strconv.Itoa(id) + " · " + tenant
}

// Follow marks the row of step as selected (MarkSelectedRow) and keeps it
// in view inside the log's own scroll box (#log), without scrolling the
// page (the timeline may be being dragged there). Run it once go-app has
// updated the log (ctx.Defer). It reads no geometry: a row's offsetTop,
// read in an update, forced the browser to lay the whole page out in the
// middle of go-app's update, on every step. An IntersectionObserver is
// told where the row is from the browser's own layout, after the frame,
// and scrolls only if it must.
func (l *Log) Follow(step int) {
	if l.follow != nil {
		l.follow.Call("disconnect")
	}
	win := app.Window()
	wrap := win.GetElementByID("log") // the scroll box
	row := MarkSelectedRow(step)
	if !wrap.Truthy() || !row.Truthy() || !win.Get("IntersectionObserver").Truthy() {
		return
	}
	if l.onSeen == nil {
		l.onSeen = app.FuncOf(func(this app.Value, args []app.Value) any {
			if len(args) > 0 {
				centreRows(args[0], this)
			}
			return nil
		})
	}
	if l.follow == nil || !l.follow.Get("root").Equal(wrap) { // one observer while the log stands
		l.follow = win.Get("IntersectionObserver").New(l.onSeen, map[string]any{"root": wrap, "threshold": 1})
	}
	l.follow.Call("observe", row)
}

// Stop ends following the selected row and frees its callback.
func (l *Log) Stop() {
	if l.follow != nil {
		l.follow.Call("disconnect")
	}
	if l.onSeen != nil {
		l.onSeen.Release()
	}
	l.follow, l.onSeen = nil, nil
}

// centreRows scrolls the log so that a row not wholly in view is centred
// in it, from an IntersectionObserver's entries; then it stops observing.
func centreRows(entries, observer app.Value) {
	for i := range entries.Length() {
		e := entries.Index(i)
		if e.Get("intersectionRatio").Float() >= 1 || !e.Get("rootBounds").Truthy() {
			continue
		}
		box, row := e.Get("rootBounds"), e.Get("boundingClientRect")
		delta := row.Get("top").Float() + row.Get("height").Float()/2 - box.Get("top").Float() - box.Get("height").Float()/2
		observer.Get("root").Call("scrollBy", map[string]any{"top": delta})
	}
	observer.Call("disconnect")
}

// ClickedStep is the step of the log's row a click landed in, if any: the
// rows' clicks are handled on the log's wrapper as they bubble up.
func ClickedStep(e app.Event) (int, bool) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return 0, false
	}
	row := target.Call("closest", "#log .log-btn")
	if !row.Truthy() {
		return 0, false
	}
	step, err := strconv.Atoi(row.Get("dataset").Get("step").String())
	return step, err == nil
}

// MarkSelectedRow marks the row of step, and no other, as selected in the
// page, as the prerender writes it, and returns it (null when step is 0,
// the latest, or not listed).
func MarkSelectedRow(step int) app.Value {
	doc := app.Window().Get("document")
	row := app.Null()
	if step > 0 {
		row = doc.Call("querySelector", `#log .log-row[data-step="`+strconv.Itoa(step)+`"]`)
	}
	if was := doc.Call("querySelector", "#log .log-row.selected"); was.Truthy() && !was.Equal(row) {
		setRowSelected(was, false)
	}
	if row.Truthy() && !row.Get("classList").Call("contains", "selected").Bool() {
		setRowSelected(row, true)
	}
	return row
}

func setRowSelected(row app.Value, on bool) {
	row.Get("classList").Call("toggle", "selected", on)
	if btn := row.Get("firstElementChild"); btn.Truthy() {
		btn.Call("setAttribute", "aria-pressed", strconv.FormatBool(on))
	}
}
