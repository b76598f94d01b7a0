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
// equal size and summarises each. It walks the page table's runs, not the
// pages: a 1,048,576-page pool costs its runs and the cells.
func (s *Snapshot) Cells(first, last, n int) ([]Cell, error) {
	if err := s.checkCells(first, last, n); err != nil {
		return nil, err
	}
	pages := last - first + 1
	n = min(n, pages)
	cells := make([]Cell, n)
	owners := make([]int, len(s.e.tenants))
	tenantOf := s.e.reqTenant
	for c := range cells {
		cell := &cells[c] // in place: a local would escape into the closure, one allocation a cell
		cell.First, cell.Last = first+c*pages/n, first+(c+1)*pages/n-1
		clear(owners)
		s.t.eachRun(cell.First, cell.Last+1, func(_, k int, h, w int32) {
			who := w
			switch {
			case h != noRequest:
				cell.Allocated += k
				if w == noRequest {
					who = h
				}
			case w != noRequest:
				cell.Stale += k
			default:
				cell.Free += k
				return
			}
			owners[tenantOf[who-1]] += k
		})
		cell.Owner = s.mostPages(owners)
	}
	for _, r := range s.leaked() {
		lo, hi := max(r.First, first), min(r.First+r.Count-1, last)
		if lo > hi {
			continue
		}
		for c := cellIndex(cells, first, pages, lo); c < n && cells[c].First <= hi; c++ {
			cells[c].Leaked += min(hi, cells[c].Last) - max(lo, cells[c].First) + 1
		}
	}
	for i := range cells {
		cells[i].State = cellState(cells[i])
	}
	return cells, nil
}

// checkCells checks a range of pages and a cell count for Cells.
func (s *Snapshot) checkCells(first, last, n int) error {
	if first < 0 || last >= s.t.pages || first > last {
		return fmt.Errorf("page range %d–%d: must lie within 0–%d", first, last, s.t.pages-1)
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
