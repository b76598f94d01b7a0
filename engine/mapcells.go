package engine

import "fmt"

// MapCellsFrom is the fewest pages per cell for which CellsFromMap beats
// Cells: it clears a 256-entry count per cell.
const MapCellsFrom = 64

// CellsFromMap is Cells read from m, this snapshot's page map (PageMap):
// the same cells, from one byte per page instead of two page-table words
// and a tenant look-up each — a count per byte value per cell, worked out
// once per cell. The leaked pages, which the map marks leaked instead of
// held or stale, are looked up in the page table.
func (s *Snapshot) CellsFromMap(m []byte, first, last, n int) ([]Cell, error) {
	if len(m) != len(s.holder) {
		return nil, fmt.Errorf("page map of %d pages for a pool of %d", len(m), len(s.holder))
	}
	if err := s.checkCells(first, last, n); err != nil {
		return nil, err
	}
	count := last - first + 1
	n = min(n, count)
	cells := make([]Cell, n)
	owners := make([]int, len(s.e.tenants))
	var hist [256]int32
	for c := range cells {
		lo, hi := first+c*count/n, first+(c+1)*count/n-1
		clear(hist[:])
		for _, b := range m[lo : hi+1] {
			hist[b]++
		}
		cell := Cell{First: lo, Last: hi}
		clear(owners)
		for b, k := range hist {
			if k == 0 {
				continue
			}
			switch byte(b) & MapStateMask {
			case MapFree:
				cell.Free += int(k)
				continue
			case MapAllocated:
				cell.Allocated += int(k)
			case MapStale:
				cell.Stale += int(k)
			}
			if t := mapOwner(byte(b)); t < len(owners) {
				owners[t] += int(k)
			}
		}
		cell.Owner = s.mostPages(owners)
		cells[c] = cell
	}
	s.countLeaked(cells, first, count, n)
	s.leaked().Each(func(id int) bool { // held or stale, as Cells counts them
		if id < first || id > last {
			return true
		}
		c := cellOf(cells, id)
		if s.holder[id] != noRequest {
			cells[c].Allocated++
		} else {
			cells[c].Stale++
		}
		return true
	})
	for i := range cells {
		cells[i].State = cellState(cells[i])
	}
	return cells, nil
}

// mapOwner is the tenant index a page-map byte of a held or stale page
// names. The owner field holds index+1 in six bits, so the 64th tenant
// (MaxTenants) wraps to 0, which no held or stale page has otherwise.
func mapOwner(b byte) int {
	if o := int(b >> MapOwnerShift); o > 0 {
		return o - 1
	}
	return MaxTenants - 1
}

// cellOf is the cell whose range holds page id.
func cellOf(cells []Cell, id int) int {
	lo, hi := 0, len(cells)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if cells[mid].Last < id {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
