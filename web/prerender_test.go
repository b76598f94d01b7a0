package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// The prerendered page is what a reader sees while the wasm loads: it must
// show the demo's leak, and no false boolean attribute may read as true.
func TestPrerenderedPage(t *testing.T) {
	html := app.HTMLString(newPlayground())
	assert.Regexp(t, `<output[^>]*id="status"[^>]*>200</output>`, html)
	assert.Contains(t, html, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200")
	assert.Equal(t, 7, strings.Count(html, `class="cell state-leaked`))
	assert.NotRegexp(t, `(selected|checked|disabled|readonly)="false"`, html)
	assert.True(t, hasTag(html, "option", `value="vulnerable"`, "selected"))
	assert.False(t, hasTag(html, "option", `value="fixed"`, "selected"))
	assert.True(t, hasTag(html, "input", `id="scrub"`))
	assert.False(t, hasTag(html, "input", `id="scrub"`, "checked"))
}

// hasTag reports whether some <tag …> holds every part; go-app writes
// attributes in no fixed order.
func hasTag(html, tag string, parts ...string) bool {
	for _, t := range regexp.MustCompile(`<`+tag+`\b[^>]*>`).FindAllString(html, -1) {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(t, p)
		}
		if all {
			return true
		}
	}
	return false
}

// Every id on the page is unique, in every preset and view (the comparison,
// the tour, the embed and its panels): a label's for=, an aria reference or
// getElementById finds the one element it means. The timeline's container
// had the scrub setting's id.
func TestEveryIDOnThePageIsUnique(t *testing.T) {
	idAttr := regexp.MustCompile(`\sid="([^"]*)"`)
	type page struct {
		slug string
		view model.View
	}
	var pages []page
	slugs, _ := engine.PresetNames()
	for _, slug := range slugs {
		pages = append(pages, page{slug, model.View{}})
	}
	views := []model.View{{Compare: true}, {Tour: 2}, {Embed: true}, {Embed: true, Compare: true}}
	for _, panel := range model.Panels {
		views = append(views, model.View{Embed: true, Panel: panel})
	}
	for _, view := range views {
		pages = append(pages, page{"demo", view}, page{"glm-launch", view})
	}
	for _, pg := range pages {
		p := newPlayground()
		require.NoError(t, p.s.LoadPreset(pg.slug))
		p.s.SetView(pg.view)
		seen := map[string]int{}
		for _, m := range idAttr.FindAllStringSubmatch(app.HTMLString(p), -1) {
			seen[m[1]]++
		}
		for id, n := range seen {
			assert.Equal(t, 1, n, "%s, view %+v: id %q", pg.slug, pg.view, id)
		}
	}
}
