package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The page's footer links its sources, each in a new tab.
func TestFooterLinksTheSources(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	type link struct {
		Href   string `json:"href"`
		Target string `json:"target"`
		Rel    string `json:"rel"`
	}
	links := evalJS[[]link](b, `[...document.querySelectorAll("footer a")].map(a => ({href: a.href, target: a.target, rel: a.rel}))`)
	hrefs := map[string]bool{}
	for _, l := range links {
		hrefs[l.Href] = true
		assert.Equal(t, "_blank", l.Target, "%s opens in a new tab", l.Href)
		assert.Contains(t, l.Rel, "noopener", l.Href)
	}
	for _, want := range []string{"https://github.com/sgl-project/sglang/issues/30233", "https://github.com/sgl-project/sglang/pull/38704", "https://github.com/sgl-project/sglang/pull/36988", "https://github.com/sgl-project/sglang/pull/38935"} {
		assert.True(t, hrefs[want], "the footer links %s: %v", want, links)
	}
	assert.Equal(t, "contentinfo", evalJS[string](b, `(() => { const f = document.querySelector("footer"); return f && !f.closest("main, article, section, aside, nav") ? "contentinfo" : "nested"; })()`), "a page footer, not a section's")
}
