package model

import (
	"slices"

	"kvleak/engine"
)

// PoolMapView is the pool at the selected step as a page map
// (engine.Snapshot.PageMap): one byte per page, which the component turns
// into pixels in one pass.
type PoolMapView struct {
	// Version changes whenever Map is redrawn. Map's bytes are reused from
	// step to step (too many to copy at launch scale), so go-app's
	// comparison of the component's inputs sees the change here, first.
	Version int
	Show    bool
	Pages   int
	Map     []byte
	// Changed is the pages whose bytes Map changed since Version-1, unless
	// AllChanged: then it was drawn whole. The component repaints only
	// their pixels when it drew Version-1.
	Changed    engine.Pages
	AllChanged bool
	Leaked     engine.Pages // called out on the map
	// Colours is each owner's colour by its index among the engine's
	// tenants (the bytes' owner, less one): the colour the grid gives the
	// tenant's cells (CellView.Tenant).
	Colours []int
	Regions MapRegions // its spans in words
}

// PoolMap is the map view at the selected step; Show is false for a pool
// small enough for the grid alone.
func (s *Session) PoolMap() PoolMapView {
	pages := s.cfg.PagesOf(engine.ServerDecode)
	if pages < MapFrom {
		return PoolMapView{}
	}
	m := &s.memo
	if k := s.snapKey(); k != m.mapKey || m.poolMap.Map == nil {
		snap := s.Snapshot()
		v := PoolMapView{Show: true, Pages: pages, Colours: s.mapColours(), Regions: mapRegions(snap, s.eng, s.tenants)}
		v.Map, v.Changed, v.AllChanged = snap.PageMapSince(m.poolMap.Map, m.mapSnap)
		if r, ok := snap.LastResponse(); ok {
			v.Leaked = r.LeakedPages
		}
		v.Version = m.poolMap.Version + 1
		m.poolMap, m.mapKey, m.mapSnap = v, k, snap
	}
	return m.poolMap
}

// mapColours is PoolMapView.Colours: each of the engine's tenants' place
// among the session's, or past them for one the session does not list.
func (s *Session) mapColours() []int {
	names := s.eng.Tenants()
	out := make([]int, len(names))
	for i, name := range names {
		if out[i] = slices.Index(s.tenants, name); out[i] < 0 {
			out[i] = len(s.tenants) + i
		}
	}
	return out
}

// Leaks are the leaked runs' rows on a map of layout l (MapLayout.Rows),
// a run each, for drawing a ring around them.
func (v PoolMapView) Leaks(l MapLayout) [][][3]int {
	out := make([][][3]int, 0, len(v.Leaked))
	for _, r := range v.Leaked {
		out = append(out, l.Rows(r.First, r.First+r.Count-1))
	}
	return out
}

// ChangedPixels are the pixels of a map of layout l that Changed touches
// (MapLayout.Pixels).
func (v PoolMapView) ChangedPixels(l MapLayout) [][2]int { return l.Pixels(v.Changed) }

// PoolPanelView is the pool panel at the selected step: the map of every
// page, the grid of the zoomed range and what the allocator implies.
type PoolPanelView struct {
	Grid     GridView
	Err      string
	Note     string
	Selected int // the selected step, 0 for the latest
	Map      PoolMapView
}

// PoolPanel is the pool panel's view, the grid in at most cells cells.
func (s *Session) PoolPanel(cells int) PoolPanelView {
	v := PoolPanelView{Note: s.PoolNote(), Selected: s.step, Map: s.PoolMap()}
	g, err := s.Grid(cells)
	if err != nil {
		v.Err = err.Error()
	}
	v.Grid = g
	return v
}
