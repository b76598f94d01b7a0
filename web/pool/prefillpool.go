package pool

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// prefillPool shows the prefill server's KV pool at the selected step: its
// pages as tiles or cells, or a map at real scale. It is shown, not
// explored: decode's pool below is the one with details, zoom and a table.
type prefillPool struct {
	app.Compo

	IPool model.PrefillPoolView
	// IFolded shows it as a closed disclosure: the compact embed, where
	// decode's pool, on which the leak lands, must stay on screen.
	IFolded bool
	// IScrubbing: the timeline is being dragged (poolMap).
	IScrubbing bool
}

func newPrefillPool() *prefillPool { return &prefillPool{} }

func (c *prefillPool) Pool(v model.PrefillPoolView) *prefillPool { c.IPool = v; return c }
func (c *prefillPool) Folded(v bool) *prefillPool                { c.IFolded = v; return c }
func (c *prefillPool) Scrubbing(v bool) *prefillPool             { c.IScrubbing = v; return c }

func (c *prefillPool) Render() app.UI {
	widget.CountRender("prefillPool")
	v := c.IPool
	var body app.UI
	switch {
	case v.Err != "":
		body = app.P().Class("field-error").Text(v.Err)
	case v.Map.Show:
		body = newPoolMap().ID("prefill-map").Map(v.Map).Scrubbing(c.IScrubbing)
	default:
		body = app.Raw(dom.PrefillGridHTML(v.Grid))
	}
	hint := widget.Hint("prefill-note", "prefill's pool", v.Summary+". Prefill builds its prompt's KV here and frees it after the transfer; it reads no page it did not write, so a leak lands on decode's pool below.")
	if c.IFolded {
		return app.Details().ID("pool-prefill").Class("pool-server").Body(
			app.Raw(`<summary id="pool-prefill-h">Prefill server's pool: `+html.EscapeString(v.Summary)+`</summary>`),
			hint, body,
		)
	}
	return app.Div().ID("pool-prefill").Class("pool-server").Body(
		app.Raw(`<h3 id="pool-prefill-h">Prefill server's pool</h3>`),
		hint, body,
	)
}
