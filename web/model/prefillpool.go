package model

import (
	"fmt"
	"strings"

	"kvleak/engine"
)

// prefillCells bounds the prefill pool's grid: it is shown, not explored.
const prefillCells = 128

// PrefillPoolView is the prefill server's pool at the selected step: its
// pages as tiles or cells, or a map at real scale. Prefill builds the KV of
// its own prompt there and frees it after the transfer; it reads no page
// it did not write, so the leak lands on decode's pool, not here.
type PrefillPoolView struct {
	Grid    GridView
	Map     PoolMapView
	Summary string
	Err     string
}

// PrefillPool is the prefill pool's view at the selected step.
func (s *Session) PrefillPool() PrefillPoolView {
	m := &s.memo
	if k := (gridKey{snapKey: s.snapKey(), tenants: strings.Join(s.tenants, "\x00"), dragged: s.holdNames}); k != m.prefillKey || m.prefill.Summary == "" && m.prefill.Err == "" {
		m.prefill, m.prefillSnap = s.prefillPoolOver(m.prefill.Map, m.prefillSnap)
		m.prefillKey = k
	}
	return m.prefill
}

// prefillPool is the prefill pool's view built afresh.
func (s *Session) prefillPool() PrefillPoolView {
	v, _ := s.prefillPoolOver(PoolMapView{}, nil)
	return v
}

// prefillPoolOver is the prefill pool's view, its map drawn over was,
// the map of prev, as decode's is (PoolMap): a move of the scrubber
// rewrites and repaints the pages the steps between changed, not 681,280
// bytes allocated and painted afresh. It returns the snapshot the map
// shows.
func (s *Session) prefillPoolOver(was PoolMapView, prev *engine.Snapshot) (PrefillPoolView, *engine.Snapshot) {
	snap, err := s.eng.ViewAtOf(engine.ServerPrefill, s.Current())
	if err != nil {
		return PrefillPoolView{Err: err.Error()}, nil
	}
	var v PrefillPoolView
	pages := snap.Pages()
	free, held, stale := snap.Occupancy()
	v.Summary = fmt.Sprintf("%s %s: %s held, %s stale (freed, still holding KV), %s free",
		engine.Thousands(int64(pages)), plural(pages, "page", "pages"), engine.Thousands(int64(held)), engine.Thousands(int64(stale)), engine.Thousands(int64(free)))
	if pages >= MapFrom {
		v.Map = PoolMapView{Show: true, Pages: pages, Colours: s.mapColours(), Version: was.Version + 1, Regions: mapRegions(snap, s.eng, s.tenants)}
		v.Map.Map, v.Map.Changed, v.Map.AllChanged = snap.PageMapSince(was.Map, prev)
		return v, snap
	}
	var marks GridMarks
	if step := s.step; step > 0 {
		if ev := s.eng.Log().At(step - 1); ev.Pool == engine.ServerPrefill {
			marks.Touched = ev.Pages
		}
	}
	g, err := BuildGrid(snap, s.tenants, 0, pages-1, s.shownMarks(marks), prefillCells)
	if err != nil {
		v.Err = err.Error()
	}
	v.Grid = g
	return v, nil
}
