package widget

import (
	"html"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Section is a panel of the page's sections below the run: a disclosure,
// open at first, whose summary is the panel's heading, so a reader folds
// away what they are not using and a link from the top (web/page.go's
// sections) lands on it. go-app leaves open alone once rendered: a folded
// section stays folded across renders.
func Section(id, cls, headID, title string, body ...app.UI) app.UI {
	head := app.Raw(`<summary><h2 id="` + html.EscapeString(headID) + `">` + html.EscapeString(title) + `</h2></summary>`)
	return app.Details().ID(id).Class("panel section "+cls).Open(true).Aria("labelledby", headID).
		Body(append([]app.UI{head}, body...)...)
}
