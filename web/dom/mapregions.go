package dom

import (
	"html"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// MapRegionsHTML is a pool map's spans (model.MapRegions) as one raw list,
// in page order, every value escaped: each span's swatch of the map's
// colour for it, its pages — a button that zooms the grid when zoomable
// (its clicks are read on the list's wrapper: ClickedSpan) — whose KV they
// hold and what they are now.
func MapRegionsHTML(id string, items []model.MapRegion, zoomable bool) string {
	var b strings.Builder
	w := b.WriteString
	w(`<ul id="` + html.EscapeString(id) + `" class="map-region-list" aria-label="The map&#39;s spans, in page order">`)
	for _, r := range items {
		state := html.EscapeString(string(r.State))
		w(`<li class="region region-` + state + `"><span class="map-swatch swatch-` + state)
		if r.Tenant >= 0 {
			w(` tenant-` + strconv.Itoa(r.Tenant%8))
		}
		w(`" aria-hidden="true"></span><span>`)
		if zoomable {
			w(`<button type="button" class="link region-pages" data-first="` + strconv.Itoa(r.First) + `" data-last="` + strconv.Itoa(r.Last) + `">`)
			w(html.EscapeString(r.Pages) + `</button>`)
		} else {
			w(`<span class="region-pages">` + html.EscapeString(r.Pages) + `</span>`)
		}
		w(` <span class="region-whose">` + html.EscapeString(r.Whose) + `</span> `)
		if r.Leaked {
			w(`<strong class="seg-flag">⚠ LEAKED</strong> `)
		}
		w(`— <span class="region-now">` + html.EscapeString(r.Now) + `</span></span></li>`)
	}
	w(`</ul>`)
	return b.String()
}

// ClickedSpan is the pages of the map span whose button a click landed in.
func ClickedSpan(e app.Event) (first, last int, ok bool) {
	target := e.Get("target")
	if !target.Truthy() || !target.Get("closest").Truthy() {
		return 0, 0, false
	}
	btn := target.Call("closest", ".region-pages[data-first]")
	if !btn.Truthy() {
		return 0, 0, false
	}
	first, err1 := strconv.Atoi(btn.Get("dataset").Get("first").String())
	last, err2 := strconv.Atoi(btn.Get("dataset").Get("last").String())
	return first, last, err1 == nil && err2 == nil
}
