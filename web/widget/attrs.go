package widget

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// go-app prerenders a false boolean attribute as selected="false", which
// HTML reads as true; in the browser it sets the property instead, which is
// right and must be set either way to undo an earlier true. These helpers
// leave a false attribute out of the prerendered page only.

func Option(value, label string, selected bool) app.HTMLOption {
	o := app.Option().Value(value).Text(label)
	if selected || app.IsClient {
		o = o.Selected(selected)
	}
	return o
}

func Checkbox(id string, checked bool) app.HTMLInput {
	in := app.Input().Type("checkbox").ID(id)
	if checked || app.IsClient {
		in = in.Checked(checked)
	}
	return in
}

func Button(id, text string, disabled bool) app.HTMLButton {
	b := app.Button().ID(id).Type("button").Text(text)
	if disabled || app.IsClient {
		b = b.Disabled(disabled)
	}
	return b
}
