package model

import "kvleak/engine"

// The pool map draws every page at once, one pixel each, in rows of
// MapWidth pages: 681,280 pages fill 1,024 × 666 px. A pool taller than
// MapMaxRows rows folds: each pixel then stands for several pages.
const (
	MapWidth   = 1024
	MapMaxRows = 1024
	// MapFrom is the smallest pool drawn as a map: below it the grid
	// shows every page.
	MapFrom = MaxGridCells + 1
)

// PoolMapView is the pool at the selected step as a page map
// (engine.Snapshot.PageMap): one byte per page, which the component turns
// into pixels in one pass.
type PoolMapView struct {
	// Version changes whenever Map is redrawn. Map's bytes are reused from
	// step to step (too many to copy at launch scale), so go-app's
	// comparison of the component's inputs sees the change here, first.
	Version       int
	Show          bool
	Pages         int
	Width, Height int // in pixels
	PerPixel      int // pages per pixel (1 unless the pool folds)
	Map           []byte
	// Changed is the pages whose bytes Map changed since Version-1, unless
	// AllChanged: then it was drawn whole. The component repaints only
	// their pixels when it drew Version-1.
	Changed    engine.Pages
	AllChanged bool
	Leaked     engine.Pages // called out on the map
	Tenants    int          // how many tenants the owner indices name
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
		v := PoolMapView{Show: true, Pages: pages, Tenants: len(s.eng.Tenants())}
		v.Map, v.Changed, v.AllChanged = snap.PageMapSince(m.poolMap.Map, m.mapSnap)
		v.PerPixel = max(1, (pages+MapWidth*MapMaxRows-1)/(MapWidth*MapMaxRows))
		v.Width = MapWidth
		v.Height = (pages + v.PerPixel*MapWidth - 1) / (v.PerPixel * MapWidth)
		if r, ok := snap.LastResponse(); ok {
			v.Leaked = r.LeakedPages
		}
		v.Version = m.poolMap.Version + 1
		m.poolMap, m.mapKey, m.mapSnap = v, k, snap
	}
	return m.poolMap
}

// MapPage is the first page a pixel of the map stands for.
func (v PoolMapView) MapPage(x, y int) int {
	p := (y*v.Width + x) * v.PerPixel
	return min(max(p, 0), v.Pages-1)
}

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
