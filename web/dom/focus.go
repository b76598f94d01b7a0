package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// ActiveElement is the element that has the focus.
func ActiveElement() app.Value { return app.Window().Get("document").Get("activeElement") }

// FocusLost reports whether no element has the focus: the one that had it
// went away, and the browser gave it to the body.
func FocusLost() bool {
	a := ActiveElement()
	return !a.Truthy() || a.Get("tagName").String() == "BODY"
}

// FocusID moves the focus to the element of that id, if any, without
// scrolling to it.
func FocusID(id string) {
	if el := app.Window().GetElementByID(id); el.Truthy() {
		el.Call("focus", map[string]any{"preventScroll": true})
	}
}

// FocusBack gives the focus back to el, which had it before, or to the
// element of fallbackID where el is gone or was the body.
func FocusBack(el app.Value, fallbackID string) {
	if el == nil || !el.Truthy() || !el.Get("isConnected").Bool() || el.Get("tagName").String() == "BODY" {
		el = app.Window().GetElementByID(fallbackID)
	}
	if el.Truthy() {
		el.Call("focus")
	}
}

// ScrollBeside scrolls the page so that all of the element spot selects is
// on screen and not under the element of cardID: beside the card, or above
// or below it where the card stands over it (on a phone the card takes the
// bottom of the screen). It scrolls only if it must, and without motion
// under prefers-reduced-motion.
func ScrollBeside(spot, cardID string) {
	win := app.Window()
	s, k := win.Get("document").Call("querySelector", spot), win.GetElementByID(cardID)
	if !s.Truthy() || !k.Truthy() {
		return
	}
	sr, kr := s.Call("getBoundingClientRect"), k.Call("getBoundingClientRect")
	const margin = 12 // the outline and its offset, and a little air
	top, bottom := float64(margin), win.Get("innerHeight").Float()-margin
	beside := kr.Get("right").Float() <= sr.Get("left").Float() || kr.Get("left").Float() >= sr.Get("right").Float()
	switch {
	case beside:
	case kr.Get("top").Float() > (top+bottom)/2: // the card at the bottom
		bottom = kr.Get("top").Float() - margin
	default:
		top = kr.Get("bottom").Float() + margin
	}
	st, sb := sr.Get("top").Float(), sr.Get("bottom").Float()
	if st >= top && sb <= bottom {
		return
	}
	// Centred in the room it has, or its top at the room's top if taller.
	by := st - top
	if h := sb - st; h < bottom-top {
		by -= (bottom - top - h) / 2
	}
	behavior := "smooth"
	if ReducedMotion() {
		behavior = "auto"
	}
	win.Call("scrollBy", map[string]any{"top": by, "behavior": behavior})
}
