package dom

import (
	"html"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// GridRun is how many cells one block of the grid holds.
const GridRun = 32

// GridCells is the pool grid's cells (model.GridView.Cells) as an island:
// runs of GridRun cells, each a raw element (a display: contents wrapper,
// so the grid lays the cells out). Up to 512 cells as 16 strings instead of
// 512 diffed nodes with 2,048 listeners: a step that changes two cells
// builds one or two runs again, and the browser styles and lays out only
// those, not all 512 (as it did when the grid was one string). A grid of
// the same shape (a step, a scrub, a Send) is patched cell by cell:
// replacing a run of 32 tiles for the eight a step changes built, styled,
// laid out and painted 32 new tiles, and dropped the focus of a cell in it.
//
// Every cell carries data-owner="" when it has no owner (go-app drops
// empty attributes), and tabindex="-1": the grid's one tab stop is set on
// the element (TabStop), so that focusing a cell renders nothing. Every
// value is HTML-escaped: tenant names and secrets are text, never markup.
// Its events are handled on the grid's wrapper (EventCell).
func GridCells(tiles bool) Patcher[model.CellView] { return gridCells{tiles} }

type gridCells struct{ tiles bool }

func (gridCells) Layout() Layout { return Layout{Per: GridRun} }

func (gridCells) Block(first, n, gen int) (string, string) {
	return `<div class="grid-run"` + Gen(gen) + `>`, `</div>`
}

func (g gridCells) Item(b *strings.Builder, i int, c model.CellView) {
	attrs := cellAttrs(c)
	b.Grow(320)
	b.WriteString(`<button type="button" class="`)
	b.WriteString(html.EscapeString(attrs[0].Value))
	b.WriteString(`" tabindex="-1" data-idx="` + strconv.Itoa(i) + `"`)
	for _, a := range attrs[1:] {
		b.WriteString(` ` + a.Name + `="`)
		b.WriteString(html.EscapeString(a.Value))
		b.WriteString(`"`)
	}
	b.WriteString(`>`)
	b.WriteString(cellInner(c, g.tiles))
	b.WriteString(`</button>`)
}

// Change sets the cell's attributes as text and its content as the escaped
// HTML cellInner writes, where they differ; type, tabindex and data-idx
// stay.
func (g gridCells) Change(was, now model.CellView) Change {
	var c Change
	a, b := cellAttrs(was), cellAttrs(now)
	for i := range b {
		if a[i] != b[i] {
			c.Attrs = append(c.Attrs, b[i])
		}
	}
	if in := cellInner(now, g.tiles); in != cellInner(was, g.tiles) {
		c.Inner, c.SetInner = in, true
	}
	return c
}

// CellLegend says in words what a pool cell's marks mean, each drawn as
// the cells wear it: the items of the pool grid's legend (web/pool) and of
// the comparison's (web/run), whose cells wear the same classes (CellClass).
const CellLegend = `<li><span class="cell legend-cell state-free" aria-hidden="true">·</span> free</li>` +
	`<li><span class="cell legend-cell state-allocated" aria-hidden="true">A</span> allocated (letter: tenant)</li>` +
	`<li><span class="cell legend-cell state-stale" aria-hidden="true">A</span> dashed: stale, freed but still holding a tenant&#39;s KV</li>` +
	`<li><span class="cell legend-cell state-leaked" aria-hidden="true">A!</span> LEAKED into the last response</li>` +
	`<li><span class="cell legend-cell state-allocated mixed" aria-hidden="true">B+</span> holds another writer&#39;s KV past its first positions</li>`

// PrefillGridHTML is the prefill pool's cells as one raw element: spans,
// not buttons, since they are only shown; every value is escaped.
func PrefillGridHTML(g model.GridView) string {
	var b strings.Builder
	cls := "grid"
	if g.Tiles {
		cls += " tiles"
	}
	b.WriteString(`<div class="` + cls + `" role="list" aria-label="Prefill pool pages">`)
	for _, c := range g.Cells {
		attrs := cellAttrs(c)
		b.WriteString(`<span role="listitem"`)
		for _, a := range attrs {
			b.WriteString(` ` + a.Name + `="` + html.EscapeString(a.Value) + `"`)
		}
		b.WriteString(`>` + cellInner(c, g.Tiles) + `</span>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// cellAttrs are the attributes of a cell's element that follow the cell,
// class first; the others (type, tabindex, data-idx) stay as they are.
func cellAttrs(c model.CellView) [6]Attr {
	label := cellName(c)
	return [...]Attr{
		{"class", CellClass(c)}, {"data-page", c.Page}, {"data-owner", c.Owner},
		{"data-state", string(c.State)}, {"aria-label", label}, {"title", label},
	}
}

// cellInner is a cell's content as HTML, every value escaped.
func cellInner(c model.CellView, tiles bool) string {
	if !tiles {
		return html.EscapeString(c.Mark)
	}
	// The mark, who wrote the page and what it holds. Spaces between the
	// parts: the visible text reads as the start of the accessible name
	// (cellName).
	s := `<span class="tile-mark">` + html.EscapeString(c.Mark) + `</span>`
	if c.Writer != "" {
		s += ` <span class="tile-who">` + html.EscapeString(c.Writer) + `</span> <span class="tile-text">` + html.EscapeString(c.Text) + `</span>`
	}
	if c.Window {
		s += ` <span class="tile-window">` + windowWords(c) + `</span>`
	}
	return s
}

// cellName is a cell's accessible name: its visible mark first (WCAG 2.5.3,
// label in name), then the details, and how to zoom into a range.
func cellName(c model.CellView) string {
	var shown []string // what the cell shows, in its order
	if c.Mark != "·" {
		shown = append(shown, c.Mark)
	}
	if c.Writer != "" {
		shown = append(shown, c.Writer, c.Text)
	}
	if c.Window {
		shown = append(shown, windowWords(c))
	}
	name := c.Label
	if len(shown) > 0 {
		name = strings.Join(shown, " ") + " — " + name
	}
	if c.First != c.Last {
		name += ". Select to zoom in."
	}
	return name
}

// CellClass is a cell's classes: its state, its tenant's colour and how
// the selected event touched it.
func CellClass(c model.CellView) string {
	cls := "cell state-" + string(c.State)
	if c.Tenant >= 0 {
		cls += " tenant-" + strconv.Itoa(c.Tenant%8)
	}
	if c.Touched {
		cls += " touched"
	}
	if c.Window {
		cls += " in-window"
	}
	if c.Wrote {
		cls += " wrote"
	}
	if c.Mixed {
		cls += " mixed"
	}
	return cls
}

// windowWords says, on a tile in decode's read window, whether the
// request's prefill wrote it.
func windowWords(c model.CellView) string {
	switch {
	case c.Wrote && c.Mixed:
		return "prefill wrote its first positions only"
	case c.Wrote:
		return "prefill wrote this"
	}
	return "reserved, not written"
}
