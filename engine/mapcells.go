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
	var hist [256]int32
	return s.summarise(first, last, n, func(cell *Cell, owners []int) {
		clear(hist[:])
		for _, b := range m[cell.First : cell.Last+1] {
			hist[b]++
		}
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
	}, func(cell *Cell, id int) { // held or stale, as Cells counts a leaked page
		if s.holder[id] != noRequest {
			cell.Allocated++
		} else {
			cell.Stale++
		}
	})
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
