package dom

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Patch brings the items' elements in the page to items in place, if the
// island keeps its shape (the same Kind, a Patcher, and as many items, or
// as many blocks where the Kind resizes) and the change needs no more
// calls than the Kind allows. It reports whether the page shows items now;
// either way the next Render hands go-app what it must hold. root is the
// island's element in the page: the parent of its blocks, or the block
// itself for an island of one block (Layout.Per 0). An island rendered with
// RenderAt is not patched.
//
// Call it from OnUpdate, which go-app runs just before the Render of the
// same update, in the browser and once the island is mounted.
func (is *Island[T]) Patch(root app.Value, k Kind[T], items []T) bool {
	is.inPlace = false
	p, ok := k.(Patcher[T])
	if !ok || k != is.kind || is.spoilt || is.from != 0 || is.places != 0 || !is.fits(items) {
		return false
	}
	plan := PlanPatch(p, is.shown, items)
	if limit := k.Layout().MaxCalls; limit > 0 && plan.Calls() > limit {
		return false
	}
	batched := app.IsClient && classesFn().Type() == app.TypeFunction
	var classes classBatch // this patch's only: a patch given up sends none
	for _, c := range plan.Changes {
		attrs := c.Attrs
		if batched && len(attrs) > 0 && attrs[0].Name == "class" && !strings.Contains(attrs[0].Value, "\n") {
			if is.children(root, is.blockOf(c.Index)) == nil {
				return is.spoil()
			}
			classes.add(c.Index, attrs[0].Value)
			attrs = attrs[1:]
		}
		is.blocks[is.blockOf(c.Index)].dirty = true
		if len(attrs) == 0 && !c.SetInner {
			continue
		}
		el := is.element(root, c.Index)
		if !el.Truthy() {
			return is.spoil()
		}
		for _, a := range attrs {
			if a.Name == "class" { // a property set: no call, no arguments to convert
				el.Set("className", jsText(a.Value))
				continue
			}
			el.Call("setAttribute", jsText(a.Name), jsText(a.Value))
		}
		if c.SetInner {
			el.Set("innerHTML", c.Inner)
		}
	}
	classes.send(root, is.kind.Layout().Per)
	for i := len(is.shown) - 1; i >= len(items); i-- {
		el := is.element(root, i)
		if !el.Truthy() {
			return is.spoil()
		}
		el.Call("remove")
	}
	is.els = is.els[:min(len(is.els), len(items))]
	if plan.Removed > 0 || plan.Added != "" {
		last := len(is.blocks) - 1
		if plan.Added != "" {
			is.blockElement(root, last).Call("insertAdjacentHTML", "beforeend", plan.Added)
		}
		is.blocks[last].dirty = true
	}
	is.shown, is.inPlace = items, true
	return true
}

// fits reports whether items keep the island's shape.
func (is *Island[T]) fits(items []T) bool {
	l := is.kind.Layout()
	switch {
	case len(items) == len(is.shown):
		return true
	case !l.Resize || len(is.blocks) == 0:
		return false
	case l.Per == 0:
		return true
	}
	return (len(items)+l.Per-1)/l.Per == len(is.blocks)
}

// spoil gives up a patch the page does not fit (it lacks an element):
// the next Render builds every block again, as a new generation.
func (is *Island[T]) spoil() bool {
	is.spoilt = true
	return false
}

// blockOf is the block of the island's i-th item.
func (is *Island[T]) blockOf(i int) int {
	if per := is.kind.Layout().Per; per > 0 {
		return (i - is.places) / per
	}
	return 0
}

// element is the element of the island's i-th item, found through its
// block's children once and kept; undefined when the page has none.
func (is *Island[T]) element(root app.Value, i int) app.Value {
	if i < len(is.els) && is.els[i] != nil {
		return is.els[i]
	}
	k := is.blockOf(i)
	kids := is.children(root, k)
	if kids == nil {
		return app.Undefined()
	}
	el := kids.Index(i - is.blocks[k].first)
	if n := len(is.els); i >= n {
		is.els = slices.Grow(is.els, i+1-n)[:i+1]
		clear(is.els[n:]) // what a shorter list left there
	}
	is.els[i] = el
	return el
}

// children is the k-th block's children, a live collection, or nil when
// the page holds another count of blocks or of items in the block.
func (is *Island[T]) children(root app.Value, k int) app.Value {
	if is.kids == nil {
		if is.kind.Layout().Per > 0 && root.Get("childElementCount").Int() != len(is.blocks) {
			return nil
		}
		is.kids = make([]app.Value, len(is.blocks))
	}
	if is.kids[k] == nil {
		kids := is.blockElement(root, k).Get("children")
		if kids.Length() != is.shownIn(k) {
			return nil
		}
		is.kids[k] = kids
	}
	return is.kids[k]
}

// shownIn is how many items the k-th block shows.
func (is *Island[T]) shownIn(k int) int {
	n := len(is.shown) - (is.blocks[k].first - is.from)
	if per := is.kind.Layout().Per; per > 0 {
		n = min(n, per)
	}
	return n
}

// blockElement is the element of the k-th block.
func (is *Island[T]) blockElement(root app.Value, k int) app.Value {
	if is.kind.Layout().Per == 0 {
		return root
	}
	return root.Get("children").Index(k)
}
