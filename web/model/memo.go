package model

import (
	"strings"

	"kvleak/engine"
)

// memo keeps the costly views (a pass over up to 4M pages, or two replays
// for the comparison) until the run, the step or the zoom changes. It also
// keeps the views' identity: an unchanged view is the same slice, which
// go-app's comparison of a component's inputs (reflect.DeepEqual) settles
// at once, so the components showing it are not rendered again.
type memo struct {
	snapKey snapKey
	snap    *engine.Snapshot

	gridKey gridKey
	grid    GridView
	gridErr error

	cmpKey cmpKey
	cmp    CompareView
	cmpErr error

	noteKey snapKey
	note    string
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

type cmpKey struct {
	eng     *engine.Engine
	ops     int
	tenants string
}

func (s *Session) snapKey() snapKey { return snapKey{s.eng, s.Steps(), s.step} }

// Snapshot is the pool at the selected step.
func (s *Session) Snapshot() *engine.Snapshot {
	m := &s.memo
	if k := s.snapKey(); k != m.snapKey || m.snap == nil {
		m.snap, m.snapKey = s.snapshot(), k
	}
	return m.snap
}

// LastResponse is the newest response visible at the selected step.
func (s *Session) LastResponse() (engine.Response, bool) { return s.Snapshot().LastResponse() }

// Grid is the pool at the selected step and zoom, in at most cells cells,
// the pages the selected event touched outlined.
func (s *Session) Grid(cells int) (GridView, error) {
	m := &s.memo
	k := gridKey{s.snapKey(), s.zoomFirst, s.zoomLast, cells, strings.Join(s.tenants, "\x00")}
	if k != m.gridKey || m.gridKey.eng == nil {
		var touched engine.Pages
		if s.step > 0 {
			touched = s.eng.Events()[s.step-1].Pages
		}
		m.grid, m.gridErr = BuildGrid(s.Snapshot(), s.tenants, s.zoomFirst, s.zoomLast, touched, cells)
		m.gridKey = k
	}
	return m.grid, m.gridErr
}

// Compare is the side-by-side run of the session's requests through both
// doors, each side with its mini grid.
func (s *Session) Compare() (CompareView, error) {
	m := &s.memo
	k := cmpKey{s.eng, len(s.ops), strings.Join(s.tenants, "\x00")}
	if k != m.cmpKey || m.cmpKey.eng == nil {
		m.cmp, m.cmpErr = buildCompare(s.cfg, s.ops, s.tenants)
		m.cmpKey = k
	}
	return m.cmp, m.cmpErr
}

// PoolNote says what the allocator implies for the pool at the selected
// step: how many pages a cold pool would still hand out unwritten, and
// that the policy picks whose stale KV, not whether.
func (s *Session) PoolNote() string {
	m := &s.memo
	if k := s.snapKey(); k != m.noteKey || m.note == "" {
		m.note, m.noteKey = poolNote(s.cfg.Allocator, s.Snapshot()), k
	}
	return m.note
}
