package web

import (
	"slices"
	"strings"

	"kvleak/engine"
)

// viewCache keeps the costly views (a pass over up to 4M pages, or two
// replays for the comparison) until the run, the step or the zoom changes,
// so that hovering a cell or opening a panel does not redo them.
type viewCache struct {
	snapKey snapKey
	snap    *engine.Snapshot

	gridKey gridKey
	grid    gridView
	gridErr error

	htmlKey  htmlKey
	gridHTML string

	log logBlocks

	cmpKey   cmpKey
	cmp      engine.Comparison
	cmpGrids [2]gridView // vulnerable, fixed: each a pass over the pool
	cmpErr   error
}

type snapKey struct {
	eng          *engine.Engine
	events, step int
}

type gridKey struct {
	snapKey
	first, last, cells int
	tenants            string
}

type htmlKey struct {
	cells *cellView // identifies the gridView
	focus int
}

type cmpKey struct {
	eng     *engine.Engine
	ops     int
	tenants string
}

// snapshotFor is the pool at the session's selected step.
func (c *viewCache) snapshotFor(s *session) *engine.Snapshot {
	k := snapKey{s.eng, len(s.eng.Events()), s.step}
	if k != c.snapKey || c.snap == nil {
		c.snap, c.snapKey = s.snapshot(), k
	}
	return c.snap
}

// gridFor is the pool grid at the session's step and zoom, in at most
// cells cells.
func (c *viewCache) gridFor(s *session, cells int) (gridView, error) {
	k := gridKey{snapKey{s.eng, len(s.eng.Events()), s.step}, s.zoomFirst, s.zoomLast, cells, strings.Join(s.tenants, "\x00")}
	if k != c.gridKey || c.gridKey.eng == nil {
		var touched engine.Pages
		if s.step > 0 {
			touched = s.eng.Events()[s.step-1].Pages
		}
		c.grid, c.gridErr = buildGridN(c.snapshotFor(s), s.tenants, s.zoomFirst, s.zoomLast, touched, cells)
		c.gridKey = k
	}
	return c.grid, c.gridErr
}

// gridHTMLFor is gridHTML, kept while the grid and the focused cell stay.
func (c *viewCache) gridHTMLFor(g gridView, focus int) string {
	var first *cellView
	if len(g.Cells) > 0 {
		first = &g.Cells[0]
	}
	if k := (htmlKey{first, focus}); k != c.htmlKey || c.gridHTML == "" {
		c.gridHTML, c.htmlKey = gridHTML(g, focus), k
	}
	return c.gridHTML
}

// logBlocks is the listed window of the log as HTML blocks (joinLogBlock),
// kept from render to render: a Send renders only its new rows and joins
// the newest block again; a new selection, the one or two blocks it moves
// between. A row is rendered once, unselected; the selected one on demand.
type logBlocks struct {
	eng    *engine.Engine
	from   int      // the event index of rows[0]
	rows   []string // the listed events' rows, unselected
	blocks []logBlockView
}

type logBlockView struct {
	first, n int // its events: evs[first : first+n]
	selected int // the selected step if in the block, else 0
	html     string
}

// logBlocksFor is the HTML of the listed events (see logWindowStart).
func (c *viewCache) logBlocksFor(s *session) []string {
	evs := s.eng.Events()
	start := logWindowStart(len(evs))
	l := &c.log
	if l.eng != s.eng || l.from+len(l.rows) > len(evs) {
		*l = logBlocks{eng: s.eng, from: start}
	}
	if l.from < start { // the window moved: drop the rows it left
		l.rows, l.from = slices.Clone(l.rows[min(start-l.from, len(l.rows)):]), start
	}
	for i := l.from + len(l.rows); i < len(evs); i++ {
		l.rows = append(l.rows, logRowHTML(evs[i], false))
	}
	kept := l.blocks
	l.blocks = nil
	out := []string{}
	for first := start; first < len(evs); first += logBlock {
		v := logBlockView{first: first, n: min(logBlock, len(evs)-first)}
		if s.step > first && s.step <= first+v.n {
			v.selected = s.step
		}
		if i := slices.IndexFunc(kept, func(k logBlockView) bool { return k.first == first && k.n == v.n && k.selected == v.selected }); i >= 0 {
			v.html = kept[i].html
		} else {
			rows := l.rows[first-l.from : first-l.from+v.n]
			if v.selected > 0 {
				rows = slices.Clone(rows)
				rows[v.selected-1-first] = logRowHTML(evs[v.selected-1], true)
			}
			v.html = joinLogBlock(evs[first:first+v.n], rows)
		}
		l.blocks = append(l.blocks, v)
		out = append(out, v.html)
	}
	return out
}

// compareFor is the side-by-side run of the session's requests, with each
// side's mini grid.
func (c *viewCache) compareFor(s *session) (engine.Comparison, [2]gridView, error) {
	k := cmpKey{s.eng, len(s.ops), strings.Join(s.tenants, "\x00")}
	if k != c.cmpKey || c.cmpKey.eng == nil {
		c.cmp, c.cmpErr = engine.Compare(s.cfg, s.ops)
		c.cmpKey = k
		for i, side := range []engine.Side{c.cmp.Vulnerable, c.cmp.Fixed} {
			if c.cmpErr == nil {
				snap := side.Snapshot
				c.cmpGrids[i], c.cmpErr = buildGridN(snap, s.tenants, 0, snap.Pages()-1, nil, maxMiniCells)
			}
		}
	}
	return c.cmp, c.cmpGrids, c.cmpErr
}
