package model

import (
	"reflect"
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
	grid    GridView // Held: its cells may hold an earlier step's names
	gridErr error

	cmpKey cmpKey
	cmp    CompareView
	cmpErr error

	noteKey snapKey
	note    string

	pipeKey snapKey
	pipe    PipelineView

	marks     timelineMarks
	placedKey placedKey
	placed    []PlacedMark // the marks placed on the timeline
	tabOps    tabOps

	gridCells []engine.Cell // the summaries m.grid shows

	mapKey  snapKey
	poolMap PoolMapView
	mapSnap *engine.Snapshot // the snapshot poolMap was drawn from

	prefillKey gridKey // the step and the tenants' names (its cells' colours)
	prefill    PrefillPoolView
	// prefillSnap is the snapshot prefill's map was drawn from (nil for
	// no map).
	prefillSnap *engine.Snapshot

	runKey   runKey
	runQuery string

	settingsKey formKey
	settings    []SettingView
	presetsOf   string // the preset presets was built for
	presets     PresetView

	counters countersMemo
}

// countersMemo keeps the views built from the engine's counters (the
// metrics panel, the Prometheus text) while the counters are the same: the
// page reads both at every render, two a change (the panels below the fold
// follow after the paint), and the text alone is dozens of Fprintf calls.
// Reading the counters is cheap; a new engine is a new configuration too.
type countersMemo struct {
	eng     *engine.Engine
	of      engine.Metrics
	metrics *MetricsView
	prom    *string
}

// at is the engine's counters, having dropped the views of other ones.
func (c *countersMemo) at(e *engine.Engine) engine.Metrics {
	cur := e.Metrics()
	if c.eng != e || !reflect.DeepEqual(cur, c.of) {
		*c = countersMemo{eng: e, of: cur}
	}
	return cur
}

// runKey names a run at a step: a new engine for every new configuration,
// the preset it still matches, the operations that made it.
type runKey struct {
	snapKey
	preset string
	ops    int
}

type snapKey struct {
	eng          *engine.Engine
	events, step int
}

// formKey is what the settings' views are built from.
type formKey struct {
	cfg        engine.Config
	text, errs fieldTexts
}

type gridKey struct {
	snapKey
	first, last, cells int
	tenants            string
	dragged            bool // built in a drag (Session.shownMarks)
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
	k := gridKey{s.snapKey(), s.zoomFirst, s.zoomLast, cells, strings.Join(s.tenants, "\x00"), s.holdNames}
	if k != m.gridKey || m.gridKey.eng == nil {
		marks := s.shownMarks(s.gridMarks())
		was := m.gridKey
		was.snapKey, was.dragged = k.snapKey, k.dragged
		if was == k && m.gridErr == nil && m.gridKey.eng == k.eng && m.grid.PerCell >= updateFrom {
			// Only the step moved: rebuild the cells that changed.
			m.grid, m.gridCells, m.gridErr = updateGrid(m.grid, m.gridCells, s.Snapshot(), s.tenants, marks, s.holdNames)
			m.grid.Held = m.grid.Held || s.holdNames
		} else {
			m.grid, m.gridCells, m.gridErr = buildGrid(s.Snapshot(), s.tenants, s.zoomFirst, s.zoomLast, marks, cells)
		}
		m.gridKey = k
	}
	if m.grid.Held && !s.holdNames && m.gridErr == nil {
		m.grid = named(m.grid, m.gridCells, s.Snapshot())
		m.grid.Held = false
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

// shownMarks are the marks a grid draws now: a drag outlines no page, as
// it draws no cell's letter (GridView.Held). At launch scale each move
// outlined ~440 cells and took as many outlines away, most of a move's
// extra cost over the demo's (docs/performance.md); the selected event's
// pages are outlined when the drag ends. The gridKey of each grid says
// whether it was built in a drag.
func (s *Session) shownMarks(m GridMarks) GridMarks {
	if s.holdNames {
		m.Touched = nil
	}
	return m
}

// gridMarks are the pages the grid marks at the selected step: those the
// selected event touched, and the slot of the request it belongs to (the
// newest response's at the latest step) with the pages its prefill wrote.
func (s *Session) gridMarks() GridMarks {
	var g GridMarks
	evs := s.eng.Log()
	step, request := s.Current(), 0
	if s.step > 0 {
		if ev := evs.At(s.step - 1); ev.Pool == engine.ServerDecode {
			g.Touched = ev.Pages
		}
		request = evs.At(s.step - 1).Request
	} else if r, ok := s.LastResponse(); ok {
		request = r.Request
	}
	if request == 0 {
		return g
	}
	for i := range step {
		ev := evs.At(i)
		if ev.Request != request || ev.Victim != 0 {
			continue
		}
		switch {
		case ev.Stage == engine.StageDecodePrealloc:
			g.Window = ev.Pages
		case ev.Stage == engine.StagePrefillTransfer && ev.Pool == engine.ServerDecode:
			g.Wrote = ev.Pages
		}
	}
	return g
}
