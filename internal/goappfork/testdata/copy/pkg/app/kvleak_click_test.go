package app

import (
	"reflect"
	"testing"
)

// element is a DOM element as closestLink sees it; calls records every
// call into "JavaScript".
type element struct {
	Value
	tag    string
	parent *element
	calls  *[]string
}

func (e *element) Truthy() bool { return e != nil }

func (e *element) Get(p string) Value {
	*e.calls = append(*e.calls, "get "+p)
	if p == "closest" && e.tag != "#text" {
		return &element{tag: "function", calls: e.calls}
	}
	return Undefined()
}

func (e *element) Call(m string, args ...any) Value {
	*e.calls = append(*e.calls, "call "+m)
	for at := e; at != nil; at = at.parent {
		if at.tag == "A" {
			return at
		}
	}
	return Null()
}

// Edit closest-link: the link a click landed in, however deep, in two calls.
func TestKvleakClosestLinkIsOneCall(t *testing.T) {
	var calls []string
	body := &element{tag: "BODY", calls: &calls}
	link := &element{tag: "A", parent: body, calls: &calls}
	span := &element{tag: "SPAN", parent: &element{tag: "B", parent: &element{tag: "I", parent: link, calls: &calls}, calls: &calls}, calls: &calls}

	if got := closestLink(span); got != link {
		t.Errorf("closestLink(span in a link) = %v, want the link", got)
	}
	if want := []string{"get closest", "call closest"}; !reflect.DeepEqual(calls, want) {
		t.Errorf("calls into JavaScript = %q, want %q", calls, want)
	}
	if got := closestLink(&element{tag: "P", parent: body, calls: &calls}); got.Truthy() {
		t.Errorf("closestLink(p outside a link) = %v, want null", got)
	}
	if got := closestLink(&element{tag: "#text", calls: &calls}); got.Truthy() {
		t.Errorf("closestLink(a node without closest) = %v, want null", got)
	}
	if got := closestLink(Null()); got.Truthy() {
		t.Errorf("closestLink(null) = %v, want null", got)
	}
}
