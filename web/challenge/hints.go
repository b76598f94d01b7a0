package challenge

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/widget"
)

// hints are the hints the reader's tries have revealed, and how many
// tries the next one takes.
type hints struct {
	app.Compo

	IHints []string
	IIn    int
}

func newHints() *hints { return &hints{} }

func (c *hints) Hints(h []string) *hints { c.IHints = h; return c }
func (c *hints) In(n int) *hints         { c.IIn = n; return c }

func (c *hints) Render() app.UI {
	widget.CountRender("challengeHints")
	next := ""
	switch {
	case c.IIn == 1:
		next = "A hint after one more try."
	case c.IIn > 1:
		next = "A hint after " + strconv.Itoa(c.IIn) + " more tries."
	}
	return app.Div().ID("challenge-hints").Class("challenge-hints").Body(
		app.If(len(c.IHints) > 0, func() app.UI {
			return app.Ol().Aria("label", "Hints").Body(app.Range(c.IHints).Slice(func(i int) app.UI { return app.Li().Text(c.IHints[i]) }))
		}),
		app.If(next != "", func() app.UI { return app.P().Class("hint").Text(next) }),
	)
}
