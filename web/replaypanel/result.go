package replaypanel

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// resultView is #replay-result: the last finished replay, whose counts
// its data attributes carry once done (data-done="true"); while a replay
// runs, the last one stays, marked busy.
func (c *Panel) resultView() app.UI {
	div := app.Div().ID("replay-result").Class("replay-result").DataSet("done", strconv.FormatBool(c.result != nil && !c.running))
	if c.running {
		div = div.Aria("busy", true)
	}
	v := c.result
	if v == nil {
		return div
	}
	d := v.Data
	div = div.DataSet("requests", d.Requests).DataSet("leaked", d.Leaked).DataSet("exposed-tenants", d.ExposedTenants).
		DataSet("fixed-leaked", d.FixedLeaked).DataSet("fixed-rejected", d.FixedRejected).DataSet("skipped", d.Skipped).
		DataSet("elapsed-ms", c.took.elapsed.Milliseconds()).DataSet("longest-slice-ms", c.took.longest.Milliseconds()).DataSet("run", c.finished)
	return div.Body(app.Raw(c.resultHTML), app.Div().Class("row wrap replay-files").Body(
		app.Button().ID("replay-pairs-csv").Type("button").Text("Download the pairs (CSV)").OnClick(c.safe(c.onCSV)),
		app.Button().ID("replay-tenants-csv").Type("button").Text("Download the exposed tenants (CSV)").OnClick(c.safe(c.onCSV)),
		app.P().Class("hint").Text("Whom to tell: every victim → recipient pair of a leaked response, and every exposed tenant, through the vulnerable door, as kvleak replay -pairs and -tenants write them."),
	))
}

// onCSV downloads the file its button names.
func (c *Panel) onCSV(ctx app.Context, e app.Event) {
	if dom.SourceID(ctx) == "replay-pairs-csv" {
		dom.Download(model.ReplayPairsFile, "text/csv", c.files.Pairs)
	} else {
		dom.Download(model.ReplayTenantsFile, "text/csv", c.files.Tenants)
	}
}

// resultMarkup is a result as HTML, rendered as one raw element: it
// changes only with the result, and markup written here costs the wasm a
// fraction of go-app's element calls. Every text in it is escaped: tenant
// names and skipped lines come from the reader's log. leakHref is the
// first leak's link, resolved for the site's prefix.
func resultMarkup(v *model.ReplayView, leakHref string, seconds float64) string {
	var b strings.Builder
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	th := func(n int64) string { return engine.Thousands(n) }
	w(`<div class="replay-body"><h3>What each door answered</h3>`,
		`<p id="replay-summary">`, esc(v.Summary), ` Replayed in this page in `, strconv.FormatFloat(seconds, 'f', 2, 64), ` s.</p>`,
		`<p class="hint">`, esc(v.Settings), `</p>`)

	// Both doors side by side; a figure that counts leaked KV is marked by
	// a sign and weight as well as colour.
	w(`<table id="replay-doors" class="replay-doors"><caption class="visually-hidden">The vulnerable and the fixed door over the whole log</caption>`,
		`<thead><tr><th scope="col">Over the log</th><th scope="col">Vulnerable</th><th scope="col">Fixed</th></tr></thead><tbody>`)
	for _, r := range v.Rows {
		w(`<tr data-row="`, esc(r.Name), `"><th scope="row">`, esc(r.Name), `</th>`)
		if r.Leak {
			w(`<td class="leak-cell"><span aria-hidden="true">⚠ </span>`, esc(r.Vulnerable), `</td>`)
		} else {
			w(`<td>`, esc(r.Vulnerable), `</td>`)
		}
		w(`<td>`, esc(r.Fixed), `</td></tr>`)
	}
	w(`</tbody></table>`)

	if len(v.Pairs) > 0 {
		w(`<h3>Whose KV reached whom, `, esc(v.PairsNote), `</h3>`,
			`<p class="hint">Victim → recipient: responses, pages, tokens, through the vulnerable door.</p><ol id="replay-pairs">`)
		for _, p := range v.Pairs {
			w(`<li><span class="pair-who">`, esc(p.Victim), ` → `, esc(p.Recipient), `</span>: `,
				th(int64(p.Responses)), `, `, th(p.Pages), `, `, th(p.Tokens))
			if where := p.Where(); where != "" {
				w(` (`, where, `)`)
			}
			w(`</li>`)
		}
		w(`</ol>`)
	}
	if v.FirstLeak != "" {
		w(`<p id="replay-first"><strong class="leak-flag">⚠ First leaked response:</strong> `, esc(v.FirstLeak),
			` <a id="replay-first-link" href="`, esc(leakHref), `">Open a run that shows it</a></p>`)
	} else {
		w(`<p id="replay-first" class="verdict verdict-ok">✓ No response carried another tenant's KV through either door.</p>`)
	}

	// The chart, its legend, and its text alternative: the bins with a
	// leak, as a table.
	c := v.Chart
	w(`<figure class="replay-figure"><figcaption>Leaked responses over time <span class="legend">`,
		`<span class="swatch swatch-vulnerable" aria-hidden="true"></span> vulnerable (solid): `, th(int64(v.Data.Leaked)),
		` <span class="swatch swatch-fixed" aria-hidden="true"></span> fixed (hatched): `, th(int64(v.Data.FixedLeaked)), `</span></figcaption>`,
		chartSVG(c))
	if len(c.Bins) == 0 {
		w(`<p id="replay-chart-bins" class="hint">No bin has a leaked response, through either door.</p>`)
	} else {
		w(`<details class="replay-bins"><summary>The chart as a table: the `, strconv.Itoa(len(c.Bins)), ` bins with a leak</summary>`,
			`<table id="replay-chart-bins"><thead><tr><th scope="col">From</th><th scope="col">To</th><th scope="col">Vulnerable</th><th scope="col">Fixed</th></tr></thead><tbody>`)
		for _, bin := range c.Bins {
			w(`<tr><td>`, esc(bin.From), `</td><td>`, esc(bin.To), `</td><td>`, th(int64(bin.Vulnerable)), `</td><td>`, th(int64(bin.Fixed)), `</td></tr>`)
		}
		w(`</tbody></table></details>`)
	}
	w(`</figure>`)

	if len(v.Skipped) > 0 {
		w(`<h3>Skipped lines</h3><ul id="replay-skipped">`)
		for _, s := range v.Skipped {
			w(`<li>`, esc(s), `</li>`)
		}
		w(`</ul>`)
		if v.SkippedMore > 0 {
			w(`<p class="hint">… and `, th(int64(v.SkippedMore)), ` more, counted but not listed.</p>`)
		}
	}
	w(`<h3>Notes</h3><ul id="replay-notes" class="replay-notes">`)
	for _, n := range v.Notes {
		w(`<li>`, esc(n), `</li>`)
	}
	w(`</ul></div>`)
	return b.String()
}
