package widget

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// oneLine is about as many characters of a hint as one line of the
// settings' column holds: a hint this short is shown as it is.
const oneLine = 48

// Hint is a field's explanation, with the id its input's aria-describedby
// names. A longer one shows its first line, clipped, and a "why?"
// disclosure that opens the whole text (app.css: .why): the settings
// column stays short, and the text is a keypress away (a <summary> is a
// button to the keyboard). name says whose explanation it is, for a
// screen reader that lists the page's "why?" buttons.
func Hint(id, name, text string) app.UI {
	if len([]rune(text)) <= oneLine {
		return app.P().ID(id).Class("hint").Text(text)
	}
	return app.Details().Class("why").Body(
		app.Summary().Body(
			app.Span().Class("why-line").Aria("hidden", "true").Text(text),
			app.Span().Class("why-label").Body(app.Text("why?"), app.Span().Class("visually-hidden").Text(" ("+name+")")),
		),
		app.P().ID(id).Class("hint").Text(text),
	)
}
