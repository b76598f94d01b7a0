package engine

import "fmt"

// Cell summarises a range of pages for an aggregated grid. A page counts in
// Leaked and also in Allocated or Stale.
type Cell struct {
	First     int       `json:"first"`
	Last      int       `json:"last"`
	Free      int       `json:"free"`
	Allocated int       `json:"allocated"`
	Stale     int       `json:"stale"`
	Leaked    int       `json:"leaked"`
	Owner     string    `json:"owner"` // the tenant owning most of its pages
	State     PageState `json:"state"` // leaked, else allocated, else stale, else free
}

// Cells splits pages first..last (inclusive) into at most n cells of nearly
// equal size and summarises each. It reads each page in the range once and
// copies nothing, so a 681,280-page pool costs one pass.
func (s *Snapshot) Cells(first, last, n int) ([]Cell, error) {
	tenantOf := s.e.reqTenant
	return s.summarise(first, last, n, func(cell *Cell, owners []int) {
		lo, hi := cell.First, cell.Last
		hs, ws := s.holder[lo:hi+1], s.writer[lo:hi+1]
		last, lastTenant := int32(-1), 0 // pages come in runs of one owner
		for i, h := range hs {
			w := ws[i]
			who := w
			switch {
			case h != noRequest:
				cell.Allocated++
				if w == noRequest {
					who = h
				}
			case w != noRequest:
				cell.Stale++
			default:
				cell.Free++
				continue
			}
			if who != last {
				last, lastTenant = who, int(tenantOf[who-1])
			}
			owners[lastTenant]++
		}
	}, nil)
}

// summarise is the frame of Cells and CellsFromMap: it checks the range,
// splits it into cells, has count fill each cell's free, allocated and
// stale pages and each tenant's share in owners, names the owner, adds the
// leaked pages (onLeaked, if any, sees each one and its cell) and sets
// each cell's state.
func (s *Snapshot) summarise(first, last, n int, count func(cell *Cell, owners []int), onLeaked func(cell *Cell, id int)) ([]Cell, error) {
	if err := s.checkCells(first, last, n); err != nil {
		return nil, err
	}
	pages := last - first + 1
	n = min(n, pages)
	cells := make([]Cell, n)
	owners := make([]int, len(s.e.tenants))
	for c := range cells {
		cell := &cells[c] // in place: a local passed to count would escape, one allocation a cell
		cell.First, cell.Last = first+c*pages/n, first+(c+1)*pages/n-1
		clear(owners)
		count(cell, owners)
		cell.Owner = s.mostPages(owners)
	}
	s.leaked().Each(func(id int) bool {
		if id >= first && id <= last {
			cell := &cells[cellIndex(cells, first, pages, id)]
			cell.Leaked++
			if onLeaked != nil {
				onLeaked(cell, id)
			}
		}
		return true
	})
	for i := range cells {
		cells[i].State = cellState(cells[i])
	}
	return cells, nil
}

// checkCells checks a range of pages and a cell count for Cells.
func (s *Snapshot) checkCells(first, last, n int) error {
	if first < 0 || last >= len(s.holder) || first > last {
		return fmt.Errorf("page range %d–%d: must lie within 0–%d", first, last, len(s.holder)-1)
	}
	if n < 1 {
		return fmt.Errorf("cell count %d: must be at least 1", n)
	}
	return nil
}

// mostPages names the tenant with the most pages in owners (by tenant
// index), the first of those tied; "" when none has any.
func (s *Snapshot) mostPages(owners []int) string {
	best, name := 0, ""
	for t, k := range owners {
		if k > best {
			best, name = k, s.e.tenants[t]
		}
	}
	return name
}

// cellIndex is the cell of a summary of pages first..first+pages-1 into
// len(cells) cells whose range holds page id: the inverse of
// lo = first + c*pages/n, then a step to either side for the rounding.
func cellIndex(cells []Cell, first, pages, id int) int {
	n := len(cells)
	c := ((id-first+1)*n - 1) / pages
	for c > 0 && cells[c].First > id {
		c--
	}
	for c < n-1 && cells[c].Last < id {
		c++
	}
	return c
}

func cellState(c Cell) PageState {
	switch {
	case c.Leaked > 0:
		return PageLeaked
	case c.Allocated > 0:
		return PageAllocated
	case c.Stale > 0:
		return PageStale
	}
	return PageFree
}
