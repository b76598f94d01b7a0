package dom

import (
	"html"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
	attrs := cellAttrs(c, g.tiles)
	b.Grow(320)
	b.WriteString(`<button type="button" class="`)
	b.WriteString(html.EscapeString(attrs[0].Value))
	b.WriteString(`" tabindex="-1" data-idx="` + strconv.Itoa(i) + `"`)
	writeAttrs(b, attrs[1:])
	b.WriteString(`>`)
	if g.tiles {
		b.WriteString(cellInner(c))
	}
	b.WriteString(`</button>`)
}

// Change sets the cell's attributes as text where they differ, and a
// tile's content as the escaped HTML cellInner writes; type, tabindex and
// data-idx stay. A cell that is not a tile holds no text (its mark is
// drawn from data-mark and its classes), so a step changes its attributes
// only: no text node, no markup to parse (app.css: #grid .cell).
//
// It builds an attribute's text only when a field it is written from
// differs: a move across a reservation changes hundreds of cells' state,
// few of their names' parts.
func (g gridCells) Change(was, now model.CellView) Change {
	var c Change
	var attrs [4]Attr
	n := 0
	if was.State != now.State || was.Tenant%8 != now.Tenant%8 || (was.Tenant < 0) != (now.Tenant < 0) || was.Touched != now.Touched ||
		was.Window != now.Window || was.Wrote != now.Wrote || was.Mixed != now.Mixed {
		if cls := CellClass(now); cls != CellClass(was) {
			attrs[n], n = Attr{"class", cls}, n+1
		}
	}
	if n == 1 && was.Page == now.Page && was.Owner == now.Owner && was.Name == now.Name && !g.tiles {
		// The class alone, as most cells of a scrub change: a kept slice,
		// not one made a cell.
		c.Attrs = classAttrs(now)
		return c
	}
	if was.Page != now.Page {
		attrs[n], n = Attr{"data-page", now.Page}, n+1
	}
	if was.Owner != now.Owner {
		attrs[n], n = Attr{"data-owner", now.Owner}, n+1
	}
	if was.Name != now.Name {
		attrs[n], n = Attr{"aria-label", now.Name}, n+1
	}
	if m := cellMark(now, g.tiles); m != cellMark(was, g.tiles) {
		c.Attrs = append(make([]Attr, 0, n+1), attrs[:n]...)
		c.Attrs = append(c.Attrs, Attr{"data-mark", m})
	} else if n > 0 {
		c.Attrs = slices.Clone(attrs[:n])
	}
	if !g.tiles {
		return c
	}
	if in := cellInner(now); in != cellInner(was) {
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
// not buttons, since they are only shown, their marks as text and their
// descriptions as tooltips too (no details line follows them); every value
// is escaped.
func PrefillGridHTML(g model.GridView) string {
	var b strings.Builder
	cls := "grid"
	if g.Tiles {
		cls += " tiles"
	}
	b.WriteString(`<div class="` + cls + `" role="list" aria-label="Prefill pool pages">`)
	for _, c := range g.Cells {
		attrs := cellAttrs(c, true)
		b.WriteString(`<span role="listitem"`)
		writeAttrs(&b, attrs[:])
		writeAttrs(&b, []Attr{{"title", attrs[len(attrs)-1].Value}})
		inner := html.EscapeString(c.Mark)
		if g.Tiles {
			inner = cellInner(c)
		}
		b.WriteString(`>` + inner + `</span>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// writeAttrs writes attributes, each value escaped.
func writeAttrs(b *strings.Builder, attrs []Attr) {
	for _, a := range attrs {
		b.WriteString(` ` + a.Name + `="`)
		b.WriteString(html.EscapeString(a.Value))
		b.WriteString(`"`)
	}
}

// cellAttrs are the attributes of a cell's element that follow the cell,
// class first and its accessible name last. data-mark is the owner's
// initial, which the stylesheet draws with the state's sign in a cell that
// is not a tile ("A!", "B+", "·": markFor in the model); "" on a tile,
// which holds its mark as text.
func cellAttrs(c model.CellView, tiles bool) [5]Attr {
	return [...]Attr{
		{"class", CellClass(c)}, {"data-page", c.Page}, {"data-owner", c.Owner},
		{"data-mark", cellMark(c, tiles)}, {"aria-label", c.Name},
	}
}

// cellMark is a cell's data-mark: its owner's initial, "" on a tile.
func cellMark(c model.CellView, tiles bool) string {
	if tiles || c.Owner == "" {
		return ""
	}
	_, n := utf8.DecodeRuneInString(c.Owner)
	return c.Owner[:n]
}

// cellInner is a tile's content as HTML, every value escaped.
func cellInner(c model.CellView) string {
	// The mark, who wrote the page and what it holds. Spaces between the
	// parts: the visible text reads as the start of the accessible name
	// (model.CellView.Name).
	s := `<span class="tile-mark">` + html.EscapeString(c.Mark) + `</span>`
	if c.Writer != "" {
		s += ` <span class="tile-who">` + html.EscapeString(c.Writer) + `</span> <span class="tile-text">` + html.EscapeString(c.Text) + `</span>`
	}
	if c.Window {
		s += ` <span class="tile-window">` + model.WindowWords(c) + `</span>`
	}
	return s
}

// CellClass is a cell's classes: its state, its tenant's colour and how
// the selected event touched it. They are few (cellClassKey): each is built
// once and kept, as a step restates hundreds of cells.
func CellClass(c model.CellView) string {
	k, ok := cellClassKey(c)
	if !ok {
		return cellClass(c)
	}
	if cls := keptClasses[k]; cls != "" {
		return cls
	}
	cls := cellClass(c)
	keptClasses[k] = cls
	return cls
}

// cellClassKey numbers the classes of a cell in one of the four states:
// state, colour (or none) and the four marks of the selected event.
func cellClassKey(c model.CellView) (int, bool) {
	var state int
	switch c.State {
	case "free":
		state = 0
	case "allocated":
		state = 1
	case "stale":
		state = 2
	case "leaked":
		state = 3
	default:
		return 0, false
	}
	k := state*9 + 1 + c.Tenant%8
	if c.Tenant < 0 {
		k = state * 9
	}
	for _, on := range [...]bool{c.Touched, c.Window, c.Wrote, c.Mixed} {
		k *= 2
		if on {
			k++
		}
	}
	return k, true
}

var keptClasses [4 * 9 * 16]string

// classAttrs is the class attribute of c's element alone, kept like its
// class: a patch only reads a change's attributes.
func classAttrs(c model.CellView) []Attr {
	k, ok := cellClassKey(c)
	if !ok {
		return []Attr{{"class", cellClass(c)}}
	}
	if a := keptClassAttrs[k]; a != nil {
		return a
	}
	a := []Attr{{"class", CellClass(c)}}
	keptClassAttrs[k] = a
	return a
}

var keptClassAttrs [len(keptClasses)][]Attr

func cellClass(c model.CellView) string {
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
