package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// The prerendered page is what a reader sees while the wasm loads: it must
// show the demo's leak, and no false boolean attribute may read as true.
func TestPrerenderedPage(t *testing.T) {
	html := app.HTMLString(newPlayground())
	assert.Regexp(t, `<output[^>]*id="status"[^>]*>200</output>`, html)
	assert.Contains(t, html, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200")
	assert.Equal(t, 7, strings.Count(html, `data-state="leaked"`))
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
