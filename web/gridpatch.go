package web

import "kvleak/web/model"

// cellPatch is what a cell's element changes to show one cell where it
// showed another: the attributes whose values differ, and its content when
// that differs.
type cellPatch struct {
	attrs    []cellAttr
	inner    string
	setInner bool
}

// cellDrawn is what a cell's element holds: its attributes and content as
// cellAttrs and cellInner write them.
type cellDrawn struct {
	attrs [6]cellAttr
	inner string
}

func drawnOf(c model.CellView, tiles bool) cellDrawn {
	return cellDrawn{attrs: cellAttrs(c), inner: cellInner(c, tiles)}
}

// patchFor is the patch from old to c. Every value is text for
// setAttribute, or escaped HTML (cellInner).
func patchFor(old, c model.CellView, tiles bool) cellPatch {
	p, _ := patchFrom(drawnOf(old, tiles), c, tiles)
	return p
}

// patchFrom is the patch from an element that holds was to c, and what it
// holds then.
func patchFrom(was cellDrawn, c model.CellView, tiles bool) (cellPatch, cellDrawn) {
	var p cellPatch
	now := drawnOf(c, tiles)
	for i := range now.attrs {
		if now.attrs[i] != was.attrs[i] {
			p.attrs = append(p.attrs, now.attrs[i])
		}
	}
	if now.inner != was.inner {
		p.inner, p.setInner = now.inner, true
	}
	return p, now
}
