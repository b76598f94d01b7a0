package pool

import (
	"html"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// poolTable is the grid's cells as rows, for screen readers and keyboards,
// as raw markup (escaped): go-app's seven table elements cost the wasm
// their code for this table alone (docs/performance.md).
func poolTable(g model.GridView) app.UI {
	e := html.EscapeString
	var b strings.Builder
	b.WriteString(`<table id="pool-table" class="pool-table"><caption>KV pool pages: state, owner and provenance</caption>` +
		`<thead><tr><th scope="col">Pages</th><th scope="col">State</th><th scope="col">Owner</th><th scope="col">Details</th></tr></thead><tbody>`)
	for _, c := range g.Cells {
		state := string(c.State)
		if c.State == engine.PageLeaked {
			state = "⚠ LEAKED"
		}
		b.WriteString(`<tr data-page="` + e(c.Page) + `" data-owner="` + e(c.Owner) + `" data-state="` + e(string(c.State)) + `"><th scope="row">` + e(c.ID) +
			`</th><td>` + e(state) + `</td><td>` + e(widget.OrDefault(c.Owner, "—")) + `</td><td>` + e(c.Label) + `</td></tr>`)
	}
	b.WriteString(`</tbody></table>`)
	return app.Raw(b.String())
}
