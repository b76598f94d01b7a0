package dom

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Island is markup go-app holds without building it: a row of raw elements
// (app.Raw), the island's blocks, each the markup of a run of its items. A
// list of hundreds of items that change a few at a time is a few strings to
// go-app instead of hundreds of diffed nodes with listeners of their own
// (their events are handled where they bubble to).
//
// It is kept from render to render. A block whose items are the ones it was
// built from keeps its string, which go-app compares and leaves alone in the
// page; a block whose items changed is built again from its items' markup,
// each item's kept while the item is the same. In the browser, Patch brings
// the items' elements on the page to new items in place instead, when the
// island keeps its shape and its Kind is a Patcher; the Render that follows
// hands go-app the strings it holds. A block patched since it was built is
// built next as a new generation (Kind.Block's gen), so that no string go-app
// holds names markup the page does not show.
//
// Its zero value is an empty island. Items are compared with ==; the slices
// handed to it are kept, not copied, and must not change afterwards.
type Island[T comparable] struct {
	kind   Kind[T]  // of the blocks built
	places int      // the island's index of the first block's first item
	from   int      // the island's index of built[0], rows[0] and shown[0]
	built  []T      // the items the blocks were built from
	rows   []string // their markup
	blocks []block  // the blocks go-app holds
	out    []string // their strings, as Render handed them over
	gen    int      // the generation of the blocks built last
	// In the page (Patch).
	shown   []T         // what the items' elements show: built, or patched since
	inPlace bool        // Patch brought the page to shown: the next Render keeps the blocks
	kids    []app.Value // each block's children (live), found when first needed
	els     []app.Value // shown's elements, found when first patched
	spoilt  bool        // the page holds what the island cannot find: build it all again
}

type block struct {
	first, n int  // its items (first: the island's index); 0 items: a held place (Layout.Gap)
	dirty    bool // its items' elements were patched since it was built
}

// A Kind is one sort of island: how its items are grouped into blocks and
// written. A Kind is compared with ==, and an island built by another Kind
// (another value) is built anew.
type Kind[T comparable] interface {
	Layout() Layout
	// Block is a block's element without its items: what comes before them
	// and what after. Its items are the island's first to first+n-1. gen,
	// when not 0, is written into the element (Gen) so that the block
	// differs from any of an earlier generation.
	Block(first, n, gen int) (open, close string)
	// Item writes the element of the island's index-th item.
	Item(b *strings.Builder, index int, v T)
}

// A Patcher is a Kind whose items' elements can be changed in place.
type Patcher[T comparable] interface {
	Kind[T]
	// Change is what turns the element of an item that shows was into one
	// that shows now: the attributes whose text differs and, where it
	// differs, its content. The zero Change for an element that stays.
	Change(was, now T) Change
}

// Layout is how an island's items are grouped.
type Layout struct {
	Per int // items to a block; 0: the island is one block
	// Gap is the markup of the place held for a block a window has left
	// (RenderAt).
	Gap string
	// Resize: a patch may add and remove items at the island's end, inside
	// its last block. Without it, a patch keeps the count.
	Resize bool
	// MaxCalls is the most calls into the page a patch makes (0: no limit):
	// past it, building the blocks again costs less.
	MaxCalls int
}

// Gen is the attribute a block's element carries in generation gen: none
// in the first.
func Gen(gen int) string {
	if gen == 0 {
		return ""
	}
	return ` data-gen="` + strconv.Itoa(gen) + `"`
}

// Attr is an attribute of an item's element, its value as text.
type Attr struct{ Name, Value string }

// Change changes an item's element: its attributes to text values and,
// when SetInner, its content to Inner, HTML whose values are escaped.
type Change struct {
	Index    int // the item's index in the island
	Attrs    []Attr
	Inner    string
	SetInner bool
}

// calls is how many calls into the page the change makes.
func (c Change) calls() int {
	n := len(c.Attrs)
	if c.SetInner {
		n++
	}
	return n
}

// Plan is what turns the items' elements on the page into others in place:
// the items both lists have are changed where they differ, the rest
// removed from the end or added after it.
type Plan struct {
	Changes []Change
	Removed int    // elements to remove from the end
	Added   string // the markup of the items to add at the end, in order
}

// Calls is how many calls into the page the plan makes, leaving out the
// one that adds (Layout.MaxCalls).
func (p Plan) Calls() int {
	n := p.Removed
	for _, c := range p.Changes {
		n += c.calls()
	}
	return n
}

// PlanPatch is the plan that turns the elements of the items was into
// those of now.
func PlanPatch[T comparable](k Patcher[T], was, now []T) Plan {
	var p Plan
	common := min(len(was), len(now))
	for i := range common {
		if was[i] == now[i] {
			continue
		}
		if c := k.Change(was[i], now[i]); c.calls() > 0 {
			c.Index = i
			p.Changes = append(p.Changes, c)
		}
	}
	p.Removed = len(was) - common
	var b strings.Builder
	for i := common; i < len(now); i++ {
		k.Item(&b, i, now[i])
	}
	p.Added = b.String()
	return p
}

// Fresh is the blocks of items as an island built from nothing writes them:
// what the page shows, however it got there.
func Fresh[T comparable](k Kind[T], items []T) []string {
	var is Island[T]
	return is.Render(k, items)
}

// Render is the island's blocks for items: one string to a block, for
// go-app to hold as raw elements in this order. After a Patch, the blocks
// go-app holds.
func (is *Island[T]) Render(k Kind[T], items []T) []string { return is.RenderAt(k, 0, 0, items) }

// RenderAt is Render for a window of a longer list: items are the island's
// from the from-th on, and the blocks from places up to from hold their
// places as empty ones (Layout.Gap), so that a window moving on keeps each
// block where go-app, which diffs children by position, has it. from and
// places are multiples of Layout.Per, places at most from.
func (is *Island[T]) RenderAt(k Kind[T], places, from int, items []T) []string {
	if is.inPlace {
		is.inPlace = false
		return is.out
	}
	l := k.Layout()
	if is.spoilt || slices.ContainsFunc(is.blocks, func(b block) bool { return b.dirty }) {
		is.gen++ // every block built now differs from any held before
	}
	if k != is.kind {
		is.built, is.rows, is.blocks = nil, nil, nil
	}
	// Each item's markup, kept where the item is the one built there; in
	// place when the window has not moved, which keeps each row's index.
	rows := is.rows
	switch n := len(items); {
	case from != is.from || rows == nil:
		rows = make([]string, n)
	case n <= len(rows):
		rows = rows[:n]
	default:
		rows = append(rows, make([]string, n-len(rows))...)
	}
	for i, v := range items {
		if j := from + i - is.from; j >= 0 && j < len(is.built) && is.built[j] == v {
			rows[i] = is.rows[j]
			continue
		}
		var b strings.Builder
		k.Item(&b, from+i, v)
		rows[i] = b.String()
	}
	count := 1
	if l.Per > 0 {
		count = (from-places)/l.Per + (len(items)+l.Per-1)/l.Per
	}
	blocks, out := make([]block, 0, count), make([]string, 0, count)
	add := func(b block) {
		html, kept := is.kept(b)
		if !kept || !slices.Equal(items[b.first-from:b.first-from+b.n], is.built[b.first-is.from:b.first-is.from+b.n]) {
			html = join(k, b, is.gen, rows[b.first-from:b.first-from+b.n])
		}
		blocks, out = append(blocks, b), append(out, html)
	}
	if l.Per == 0 {
		add(block{first: from, n: len(items)})
	}
	for first := places; l.Per > 0 && first < from; first += l.Per {
		blocks, out = append(blocks, block{first: first}), append(out, l.Gap)
	}
	for first := from; l.Per > 0 && first < from+len(items); first += l.Per {
		add(block{first: first, n: min(l.Per, from+len(items)-first)})
	}
	is.kind, is.places, is.from, is.built, is.rows, is.blocks, is.out = k, places, from, items, rows, blocks, out
	is.shown, is.kids, is.els, is.spoilt = items, nil, nil, false
	return out
}

// join is the markup of block b, its items' markup given.
func join[T comparable](k Kind[T], b block, gen int, rows []string) string {
	open, close := k.Block(b.first, b.n, gen)
	n := len(open) + len(close)
	for _, r := range rows {
		n += len(r)
	}
	var s strings.Builder
	s.Grow(n)
	s.WriteString(open)
	for _, r := range rows {
		s.WriteString(r)
	}
	s.WriteString(close)
	return s.String()
}

// kept is the string of the block go-app holds with b's items, if it still
// shows them as they were built.
func (is *Island[T]) kept(b block) (string, bool) {
	if is.spoilt {
		return "", false
	}
	for i, h := range is.blocks {
		if h.first == b.first && h.n == b.n && !h.dirty && b.first >= is.from && b.first+b.n <= is.from+len(is.built) {
			return is.out[i], true
		}
	}
	return "", false
}

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
	for _, c := range plan.Changes {
		el := is.element(root, c.Index)
		if !el.Truthy() {
			return is.spoil()
		}
		for _, a := range c.Attrs {
			el.Call("setAttribute", a.Name, a.Value)
		}
		if c.SetInner {
			el.Set("innerHTML", c.Inner)
		}
		is.blocks[is.blockOf(c.Index)].dirty = true
	}
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
