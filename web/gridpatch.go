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

// patchFor is the patch from old to c. Every value is text for
// setAttribute, or escaped HTML (cellInner).
func patchFor(old, c model.CellView, tiles bool) cellPatch {
	var p cellPatch
	was, now := cellAttrs(old), cellAttrs(c)
	for i := range now {
		if now[i] != was[i] {
			p.attrs = append(p.attrs, now[i])
		}
	}
	if in := cellInner(c, tiles); in != cellInner(old, tiles) {
		p.inner, p.setInner = in, true
	}
	return p
}
