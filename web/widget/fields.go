package widget

import (
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// NumberField is a text input that takes "681280", "681,280" or "1Mi",
// with its hint and, when the value is refused, the message. onInput may
// be nil.
func NumberField(f model.Field, text, hint, msg string, onChange, onInput app.EventHandler) app.UI {
	id := f.ID()
	in := app.Input().Type("text").ID(id).DataSet("field", int(f)).Attr("inputmode", "numeric").Attr("autocomplete", "off").
		Attr("spellcheck", "false").Value(text).Aria("describedby", id+"-hint").OnChange(onChange)
	if onInput != nil {
		in = in.OnInput(onInput)
	}
	if msg != "" {
		in = in.Aria("invalid", "true").Aria("describedby", id+"-error "+id+"-hint")
	}
	return app.Div().Class("field field-number").Body(
		Label(id, f.Label()),
		in,
		Hint(id+"-hint", f.Label(), hint),
		FieldError(f, msg),
	)
}

// ChoiceField is a select of a setting's options, with its hint.
func ChoiceField(v model.SettingView, onChange app.EventHandler) app.UI {
	id := v.Field.ID()
	opts := make([]app.UI, len(v.Options))
	for i, o := range v.Options {
		opts[i] = Option(o.Value, o.Label, o.Value == v.Value)
	}
	sel := app.Select().ID(id).DataSet("field", int(v.Field)).OnChange(onChange).Body(opts...)
	if v.Hint != "" {
		sel = sel.Aria("describedby", id+"-hint")
	}
	return app.Div().Class("field").Body(
		Label(id, v.Field.Label()),
		sel,
		app.If(v.Hint != "", func() app.UI { return Hint(id+"-hint", v.Field.Label(), v.Hint) }),
		FieldError(v.Field, v.Err),
	)
}

// FieldError is the message beside a field whose value was refused.
func FieldError(f model.Field, msg string) app.UI {
	return app.If(msg != "", func() app.UI {
		return app.P().ID(f.ID() + "-error").Class("field-error").Role("alert").Text(msg)
	})
}

// Label is a field's label, as raw markup (escaped): one call where
// go-app's element builders cost the wasm several (docs/performance.md).
func Label(forID, text string) app.UI {
	return app.Raw(`<label for="` + html.EscapeString(forID) + `">` + html.EscapeString(text) + `</label>`)
}
