package web

import (
	"html"
	"slices"
	"strconv"
	"strings"

	"kvleak/web/model"
)

// gridRun is how many cells one raw element of the grid holds.
const gridRun = 32

// gridRuns renders the grid's cells as raw HTML, gridRun cells to an
// element (a display: contents wrapper, so the grid lays the cells out).
// Up to 512 cells as 16 strings instead of 512 diffed nodes with 2,048
// listeners; go-app compares a raw element's string, so a step that
// changes two cells replaces one or two runs, and the browser styles and
// lays out only those, not all 512 (as it did when the grid was one
// string). Every cell carries data-owner="" when it has no owner (go-app
// drops empty attributes), and tabindex="-1": the grid's one tab stop is set
// on the element by gridView (placeTabStop), so that focusing a cell
// renders nothing.
// Every value is HTML-escaped: tenant names and secrets are text, never
// markup. Events are handled on the wrapper (poolevents.go).
func gridRuns(g model.GridView) []string {
	return (&gridRunCache{}).render(g)
}

// gridRunCache is the runs of the last grid rendered: render builds again
// only the runs whose cells changed (a step at 681,280 pages changes a few
// of 512 cells).
type gridRunCache struct {
	cells []model.CellView
	tiles bool
	gen   int // written into each run (gridRunHTML)
	runs  []string
}

// renew starts a new generation: every run is built again, and its string
// differs from the last generation's.
func (rc *gridRunCache) renew() {
	rc.gen++
	rc.cells, rc.runs = nil, nil
}

// render is gridRuns, reusing the runs that have not changed.
func (rc *gridRunCache) render(g model.GridView) []string {
	if rc.tiles != g.Tiles || len(rc.cells) != len(g.Cells) {
		rc.cells, rc.runs = nil, nil
	}
	var runs []string
	for lo := 0; lo < len(g.Cells); lo += gridRun {
		hi := min(lo+gridRun, len(g.Cells))
		if r := lo / gridRun; r < len(rc.runs) && slices.Equal(rc.cells[lo:hi], g.Cells[lo:hi]) {
			runs = append(runs, rc.runs[r])
			continue
		}
		runs = append(runs, gridRunHTML(g, lo, hi, rc.gen))
	}
	// Kept, not copied: the model makes a new Cells slice for a new grid
	// (model.updateGrid copies before it changes a cell).
	rc.cells, rc.tiles, rc.runs = g.Cells, g.Tiles, runs
	return runs
}

// gridRunHTML is cells lo..hi-1 of the grid as one run. gen, when not 0,
// marks the run's element so that its string differs from any run of an
// earlier generation (poolGrid: go-app then replaces the element).
func gridRunHTML(g model.GridView, lo, hi, gen int) string {
	var b strings.Builder
	b.Grow((hi - lo) * 320)
	b.WriteString(`<div class="grid-run"`)
	if gen != 0 {
		b.WriteString(` data-gen="` + strconv.Itoa(gen) + `"`)
	}
	b.WriteString(`>`)
	for i := lo; i < hi; i++ {
		c := g.Cells[i]
		attrs := cellAttrs(c)
		b.WriteString(`<button type="button" class="`)
		b.WriteString(html.EscapeString(attrs[0].value))
		b.WriteString(`" tabindex="-1" data-idx="` + strconv.Itoa(i) + `"`)
		for _, a := range attrs[1:] {
			b.WriteString(` ` + a.name + `="`)
			b.WriteString(html.EscapeString(a.value))
			b.WriteString(`"`)
		}
		b.WriteString(`>`)
		b.WriteString(cellInner(c, g.Tiles))
		b.WriteString(`</button>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// cellAttr is one attribute of a cell's element, its value as text.
type cellAttr struct{ name, value string }

// cellAttrs are the attributes of a cell's element that follow the cell,
// class first; the others (type, tabindex, data-idx) stay as they are.
func cellAttrs(c model.CellView) [6]cellAttr {
	label := cellName(c)
	return [...]cellAttr{
		{"class", cellClass(c)}, {"data-page", c.Page}, {"data-owner", c.Owner},
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
