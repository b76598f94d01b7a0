package web

import (
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

	cmpKey cmpKey
	cmp    engine.Comparison
	cmpErr error
}

type snapKey struct {
	eng          *engine.Engine
	events, step int
}

type gridKey struct {
	snapKey
	first, last int
	tenants     string
}

type cmpKey struct {
	eng *engine.Engine
	ops int
}

// snapshotFor is the pool at the session's selected step.
func (c *viewCache) snapshotFor(s *session) *engine.Snapshot {
	k := snapKey{s.eng, len(s.eng.Events()), s.step}
	if k != c.snapKey || c.snap == nil {
		c.snap, c.snapKey = s.snapshot(), k
	}
	return c.snap
}

// gridFor is the pool grid at the session's step and zoom.
func (c *viewCache) gridFor(s *session) (gridView, error) {
	k := gridKey{snapKey{s.eng, len(s.eng.Events()), s.step}, s.zoomFirst, s.zoomLast, strings.Join(s.tenants, "\x00")}
	if k != c.gridKey || c.gridKey.eng == nil {
		var touched engine.Pages
		if s.step > 0 {
			touched = s.eng.Events()[s.step-1].Pages
		}
		c.grid, c.gridErr = buildGrid(c.snapshotFor(s), s.tenants, s.zoomFirst, s.zoomLast, touched)
		c.gridKey = k
	}
	return c.grid, c.gridErr
}

// compareFor is the side-by-side run of the session's requests.
func (c *viewCache) compareFor(s *session) (engine.Comparison, error) {
	k := cmpKey{s.eng, len(s.ops)}
	if k != c.cmpKey || c.cmpKey.eng == nil {
		c.cmp, c.cmpErr = engine.Compare(s.cfg, s.ops)
		c.cmpKey = k
	}
	return c.cmp, c.cmpErr
}
