package web

import (
	"regexp"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"github.com/stretchr/testify/assert"
)

// The prerendered page is what a reader sees while the wasm loads: it must
// show the demo's leak, and no false boolean attribute may read as true.
func TestPrerenderedPage(t *testing.T) {
	html := app.HTMLString(newPlayground())
	assert.Regexp(t, `<output id="status"[^>]*>200</output>`, html)
	assert.Contains(t, html, "LEAK: 7 pages of tenant A returned to tenant B with HTTP 200")
	assert.Equal(t, 7, len(regexp.MustCompile(`data-state="leaked"`).FindAllString(html, -1)))
	assert.NotRegexp(t, `(selected|checked|disabled|readonly)="false"`, html)
	assert.Regexp(t, `<option[^>]*value="vulnerable"[^>]*selected`, html)
	assert.NotRegexp(t, `<option[^>]*value="fixed"[^>]*selected`, html)
	assert.Regexp(t, `<input[^>]*id="scrub"`, html)
	assert.NotRegexp(t, `<input[^>]*id="scrub"[^>]*checked`, html)
}
