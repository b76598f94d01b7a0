package e2e

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

var shortBy = regexp.MustCompile(`short by ([\d,]+)`)

// GLM-5.3 at launch: the capacity check gives the one "short by" figure,
// 367,296 (the context 1,048,576 less prefill's pool 681,280). Launch probe
// (c) fails too, but on decode: its context-long prompt plus SGLang's 512
// reserved tokens never fits decode's budget, so it waits for good in
// DecodePreallocQueue and names no other shortfall.
func TestOneShortByFigure(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + "?v=4&preset=glm-launch")
	waitFor(b, "the capacity check", `(document.querySelector("#capacity") || {}).textContent?.includes("short by")`)
	figures := func(text string) []string {
		var out []string
		for _, m := range shortBy.FindAllStringSubmatch(text, -1) {
			out = append(out, m[1])
		}
		return out
	}
	assert.Equal(t, []string{"367,296"}, figures(textOf(b, "#capacity")), "the capacity check: %s", textOf(b, "#capacity"))
	clickSel(b, "#run-launch")
	probe := `#launch li[data-result=fail] .detail`
	waitFor(b, "launch probe (c)", `[...document.querySelectorAll(`+jsLit(probe)+`)].some(e => e.textContent.includes("never answered"))`)
	for _, d := range evalJS[[]string](b, `[...document.querySelectorAll(`+jsLit(probe)+`)].map(e => e.textContent)`) {
		assert.Empty(t, figures(d), "no other shortfall: %s", d)
	}
	assert.Contains(t, textOf(b, "#launch"), "DecodePreallocQueue for good")
}
