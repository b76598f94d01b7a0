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
