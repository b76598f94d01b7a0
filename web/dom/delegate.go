package dom

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// Clicked is what the button a click landed in says it does, for a panel
// of raw markup with one click handler for all its buttons: its data-act
// and data-v attributes, which such a button always has, and its id. An
// act of "" means the click was on no such button.
func Clicked(e app.Event) (act, val, id string) {
	t := e.Get("target")
	if !t.Truthy() || !t.Get("closest").Truthy() {
		return "", "", ""
	}
	b := t.Call("closest", "button[data-act][data-v]")
	if !b.Truthy() {
		return "", "", ""
	}
	d := b.Get("dataset")
	return d.Get("act").String(), d.Get("v").String(), b.Get("id").String()
}
