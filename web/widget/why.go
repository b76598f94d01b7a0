package widget

import (
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

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
	// Raw markup (escaped) inside the disclosure, which stays an element
	// so that it stays open as its text changes: one call where go-app's
	// element builders cost the wasm several (docs/performance.md).
	e := html.EscapeString
	p := app.Raw(`<p id="` + e(id) + `" class="hint">` + e(text) + `</p>`)
	if len([]rune(text)) <= oneLine {
		return p
	}
	return app.Details().Class("why").Body(
		app.Raw(`<summary><span class="why-line" aria-hidden="true">`+e(text)+`</span>`+
			`<span class="why-label">why?<span class="visually-hidden"> (`+e(name)+`)</span></span></summary>`),
		p,
	)
}
