package dom

import "strings"

// A Patcher is a Kind whose items' elements can be changed in place.
type Patcher[T comparable] interface {
	Kind[T]
	// Change is what turns the element of an item that shows was into one
	// that shows now: the attributes whose text differs and, where it
	// differs, its content. The zero Change for an element that stays.
	Change(was, now T) Change
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
			if p.Changes == nil { // room for the rest at once: a step may change hundreds
				p.Changes = make([]Change, 0, common-i)
			}
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
