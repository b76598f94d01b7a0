package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kvleak/engine"
)

// The grid's bounds on its DOM: above them, each cell is a range of pages.
// A phone draws fewer; the side-by-side view draws smaller grids.
const (
	MaxGridCells       = 512
	MaxGridCellsNarrow = 128
	maxMiniCells       = 64
)

// CellView is one grid cell, ready to render.
type CellView struct {
	Page string // "12" or "0-1330": the data-page hook, engine indices
	// ID is the page or range as the page shows it, by SGLang's page ids
	// (engine.PageID): "13", "1–1,331".
	ID      string
	First   int
	Last    int
	Owner   string
	State   engine.PageState
	Mark    string // the text mark: owner letter, and "!" on a leak
	Label   string // full description for screen readers and tooltips
	Tenant  int    // owner's tenant index for the colour, -1 for none
	Touched bool   // touched by the selected event
	Leaked  int
	// In the selected request's slot (decode's read window), and whether
	// its prefill wrote the page: the one page of the seven it did not.
	Window, Wrote bool
	// Tiles: who wrote the page and the start of what it holds.
	Writer, Text string
	// Mixed: the page holds another writer's KV past its first positions
	// (a write ended inside it), said in Positions.
	Mixed     bool
	Positions string
	// Name is the cell's accessible name: what it shows, then Label
	// (cellName).
	Name string
}

// GridView is the grid for one snapshot and page range.
type GridView struct {
	Cells   []CellView
	First   int
	Last    int
	PerCell int // pages per cell (1 when each cell is a page)
	Zoomed  bool
	Tiles   bool // few enough pages to show each as a readable tile
	Pages   int
	Summary string
	// Held: a drag holds the cells' names (Session.HoldNames), and the
	// grid draws no marks until it ends: a move then changes the cells'
	// classes only, where each mark was a box the browser built again.
	Held bool `json:"-"`
}

// MaxTiles is how many pages the grid shows as readable tiles.
const MaxTiles = 64

// GridMarks are the pages the grid marks apart: those the selected event
// touched, the selected request's slot and the pages its prefill wrote.
type GridMarks struct{ Touched, Window, Wrote engine.Pages }

// BuildGrid turns a snapshot into at most n cells: one per page when the
// range is small, else ranges summarised by the engine.
func BuildGrid(snap *engine.Snapshot, tenants []string, first, last int, marks GridMarks, n int) (GridView, error) {
	g, _, err := buildGrid(snap, tenants, first, last, marks, n)
	return g, err
}

// buildGrid is BuildGrid, with the engine's cells the view was built from.
func buildGrid(snap *engine.Snapshot, tenants []string, first, last int, marks GridMarks, n int) (GridView, []engine.Cell, error) {
	cells, err := snap.Cells(first, last, n)
	if err != nil {
		return GridView{}, nil, err
	}
	g := GridView{First: first, Last: last, Pages: snap.Pages(), Zoomed: first > 0 || last < snap.Pages()-1}
	g.PerCell = (last - first + len(cells)) / len(cells)
	g.Tiles = g.PerCell == 1 && len(cells) <= MaxTiles
	g.Cells = make([]CellView, len(cells))
	for i, c := range cells {
		g.Cells[i] = cellView(snap, c, tenants, marks, g.Tiles, CellView{}, false)
	}
	g.Summary = fmt.Sprintf("Pages %s–%s of %s", engine.Thousands(int64(engine.PageID(first))), engine.Thousands(int64(engine.PageID(last))), engine.Thousands(int64(snap.Pages())))
	if g.PerCell > 1 {
		g.Summary += fmt.Sprintf(", about %s pages per cell — choose a cell to zoom in", engine.Thousands(int64(g.PerCell)))
	}
	return g, cells, nil
}

// updateFrom is the fewest pages per cell for which a step updates the
// grid cell by cell (updateGrid): a cell of so many pages shows its
// summary and marks only, while a page's cell also shows who read it and
// whether it lingers at the step.
const updateFrom = 64

// cellView is one cell of the grid, ready to render.
// was is the cell's view before (CellView{} for none): a cell of the same
// pages keeps its page and id texts, as most cells of a scrub do, and with
// hold its label and name too (Session.HoldNames).
func cellView(snap *engine.Snapshot, c engine.Cell, tenants []string, marks GridMarks, tiles bool, was CellView, hold bool) CellView {
	v := CellView{First: c.First, Last: c.Last, Owner: c.Owner, State: c.State, Leaked: c.Leaked, Tenant: slices.Index(tenants, c.Owner)}
	switch {
	case was.Page != "" && was.First == c.First && was.Last == c.Last:
		v.Page, v.ID = was.Page, was.ID
	case c.First == c.Last:
		v.Page, v.ID = strconv.Itoa(c.First), strconv.Itoa(engine.PageID(c.First))
	default:
		v.Page = strconv.Itoa(c.First) + "-" + strconv.Itoa(c.Last)
		v.ID = engine.Thousands(int64(engine.PageID(c.First))) + "–" + engine.Thousands(int64(engine.PageID(c.Last)))
	}
	if c.First == c.Last {
		if p, err := snap.Page(c.First); err == nil && len(p.Positions) > 0 {
			v.Mixed, v.Positions = writers(p.Positions) > 1, positionWords(p.Positions)
		}
	}
	v.Mark = markFor(v)
	v.Touched = overlaps(marks.Touched, c.First, c.Last)
	v.Window = overlaps(marks.Window, c.First, c.Last)
	v.Wrote = v.Window && overlaps(marks.Wrote, c.First, c.Last)
	if tiles {
		v.Writer, v.Text = tileText(snap, c.First)
	}
	if hold && was.Name != "" && was.First == c.First && was.Last == c.Last {
		v.Label, v.Name = was.Label, was.Name
		return v
	}
	v.Label = cellLabel(snap, c)
	v.Name = cellName(v)
	return v
}

// cellLabel is a cell's description: its page's, or its range's summary.
func cellLabel(snap *engine.Snapshot, c engine.Cell) string {
	if c.First == c.Last {
		return pageLabel(snap, c.First)
	}
	return rangeLabel(c)
}

// named is g, whose cells were summarised from cells, with each cell's
// label and name those of snap: the ones a drag held (Session.HoldNames).
// The cells are copied on the first name that changes.
func named(g GridView, cells []engine.Cell, snap *engine.Snapshot) GridView {
	copied := false
	for i, c := range cells {
		v := g.Cells[i]
		v.Label = cellLabel(snap, c)
		v.Name = cellName(v)
		if v.Name == g.Cells[i].Name && v.Label == g.Cells[i].Label {
			continue
		}
		if !copied {
			g.Cells, copied = slices.Clone(g.Cells), true
		}
		g.Cells[i] = v
	}
	return g
}

// cellName is a cell's accessible name: its visible mark first (WCAG 2.5.3,
// label in name), then the details, and how to zoom into a range.
func cellName(c CellView) string {
	var shown []string // what the cell shows, in its order
	if c.Mark != "·" {
		shown = append(shown, c.Mark)
	}
	if c.Writer != "" {
		shown = append(shown, c.Writer, c.Text)
	}
	if c.Window {
		shown = append(shown, WindowWords(c))
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

// WindowWords says, on a tile in decode's read window, whether the
// request's prefill wrote it.
func WindowWords(c CellView) string {
	switch {
	case c.Wrote && c.Mixed:
		return "prefill wrote its first positions only"
	case c.Wrote:
		return "prefill wrote this"
	}
	return "reserved, not written"
}

// writers counts the requests whose KV a page's positions hold.
func writers(ps []engine.PositionRun) int {
	n := 0
	for _, p := range ps {
		if p.Writer != 0 {
			n++
		}
	}
	return n
}

// positionWords says whose KV each run of a page's positions holds:
// "positions 0: r2 (tenant B); 1–15: r1 (tenant A)".
func positionWords(ps []engine.PositionRun) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		at := strconv.Itoa(p.First)
		if p.Last > p.First {
			at += "–" + strconv.Itoa(p.Last)
		}
		who := "nothing"
		if p.Writer != 0 {
			who = requestOf(p.Writer, p.Tenant)
		}
		parts[i] = at + ": " + who
	}
	return "positions " + strings.Join(parts, "; ")
}

// updateGrid is the grid of the same range and cell count as prev, whose
// cells were summarised from cells, brought up to snap: it summarises the
// range again (the runs of the page table, not its pages) and builds the
// view only of a cell whose summary or marks changed, keeping the others.
// A step or a Send then costs the runs and the cells, not the labels of
// 512 cells. Only for cells of updateFrom pages or more, whose view is
// their summary's and their marks'. With hold, a changed cell keeps its
// label and name (Session.HoldNames).
func updateGrid(prev GridView, prevCells []engine.Cell, snap *engine.Snapshot, tenants []string, marks GridMarks, hold bool) (GridView, []engine.Cell, error) {
	cells, err := snap.Cells(prev.First, prev.Last, len(prev.Cells))
	if err != nil {
		return GridView{}, nil, err
	}
	// The cells are copied on the first change only: an unchanged grid
	// keeps prev's, which go-app's comparison of the components' inputs
	// (reflect.DeepEqual, at three levels of the pool panel) then finds
	// equal at once instead of cell by cell.
	g, copied := prev, false
	for i, c := range cells {
		v := &prev.Cells[i]
		touched := overlaps(marks.Touched, c.First, c.Last)
		same := c == prevCells[i] && v.Window == overlaps(marks.Window, c.First, c.Last) &&
			v.Wrote == (v.Window && overlaps(marks.Wrote, c.First, c.Last))
		if same && v.Touched == touched {
			continue
		}
		if !copied {
			g.Cells, copied = slices.Clone(prev.Cells), true
		}
		if same {
			// Only the selected event's outline moved, which no text of
			// the cell says: a move across a reservation at glm-launch
			// outlines ~440 cells, and this keeps their views.
			g.Cells[i].Touched = touched
			continue
		}
		g.Cells[i] = cellView(snap, c, tenants, marks, g.Tiles, *v, hold)
	}
	return g, cells, nil
}

// markFor is the cell's visible text: never colour alone.
func markFor(v CellView) string {
	// The owner's first letter is a slice of its name: a scrubber move at
	// glm-launch marks ~440 cells, and a rune slice each was an allocation.
	r, n := utf8.DecodeRuneInString(v.Owner)
	letter := v.Owner[:n]
	if r == utf8.RuneError && n == 1 {
		letter = string(r) // a byte that is no letter shows as U+FFFD
	}
	switch {
	case v.State == engine.PageLeaked:
		return letter + "!"
	case v.State == engine.PageFree:
		return "·"
	case v.Mixed:
		return letter + "+"
	}
	return letter
}

// pageLabel describes the page at index i, by its SGLang page id.
func pageLabel(snap *engine.Snapshot, i int) string {
	p, err := snap.Page(i)
	if err != nil {
		return err.Error()
	}
	// Concatenated, not formatted: a Send labels every cell at demo scale,
	// and fmt is several times slower in the wasm.
	s := "Page " + strconv.Itoa(engine.PageID(i)) + ": " + stateWords(p.State, p.Lingering)
	if p.Writer != 0 {
		s += "; written by " + requestOf(p.Writer, p.WriterTenant) + ": " + p.Text
	}
	if p.Holder != 0 {
		s += "; held by " + requestOf(p.Holder, p.HolderTenant)
	}
	if p.Reader != 0 {
		s += "; read by " + requestOf(p.Reader, p.ReaderTenant)
	}
	if len(p.Positions) > 0 {
		s += "; " + positionWords(p.Positions)
	}
	return s
}

// rangeLabel says what a cell of many pages holds. It is built in one
// buffer: a scrub across a large reservation relabels hundreds of cells.
func rangeLabel(c engine.Cell) string {
	b := make([]byte, 0, 128)
	b = append(b, "Pages "...)
	b = engine.AppendThousands(b, int64(engine.PageID(c.First)))
	b = append(b, "–"...)
	b = engine.AppendThousands(b, int64(engine.PageID(c.Last)))
	b = append(b, ": "...)
	b = engine.AppendThousands(b, int64(c.Free))
	b = append(b, " free, "...)
	b = engine.AppendThousands(b, int64(c.Allocated))
	b = append(b, " allocated, "...)
	b = engine.AppendThousands(b, int64(c.Stale))
	b = append(b, " stale"...)
	if c.Leaked > 0 {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(c.Leaked), 10)
		b = append(b, " LEAKED into the last response"...)
	}
	if c.Owner != "" {
		b = append(b, "; mostly tenant "...)
		b = append(b, c.Owner...)
	}
	return string(b)
}

func stateWords(s engine.PageState, lingering bool) string {
	switch {
	case s == engine.PageLeaked:
		return "LEAKED into the last response"
	case lingering:
		return "allocated, lingering (deferred release)"
	case s == engine.PageStale:
		return "free but stale (keeps its old KV)"
	}
	return string(s)
}

func overlaps(p engine.Pages, first, last int) bool {
	for _, r := range p {
		if r.First <= last && r.First+r.Count-1 >= first {
			return true
		}
	}
	return false
}

// tileText is who wrote a page and the start of what it holds.
func tileText(snap *engine.Snapshot, id int) (writer, text string) {
	p, err := snap.Page(id)
	if err != nil || p.Writer == 0 {
		return "", ""
	}
	text = p.Text
	if r := []rune(text); len(r) > 18 {
		text = string(r[:18]) + "…"
	}
	return "r" + strconv.Itoa(p.Writer) + " · " + p.WriterTenant, text
}

// requestOf names a request and its tenant: "r2 (tenant B)".
func requestOf(request int, tenant string) string {
	return "r" + strconv.Itoa(request) + " (tenant " + tenant + ")"
}
