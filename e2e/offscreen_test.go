package e2e

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// skipped reports whether the browser skips the element's rendering as
// content-visibility: auto lets it when it is off screen.
func skipped(b *browser, sel string) bool {
	return evalJS[bool](b, fmt.Sprintf(`!document.querySelector(%q).checkVisibility({contentVisibilityAuto: true})`, sel))
}

// The read-only panels that open below the fold are not styled, laid out
// or painted while off screen (static/app.css), and are once the reader
// scrolls to them; the pipeline and the pool, which the budgets time, the
// forms and the log always are.
func TestPanelsBelowTheFoldAreSkippedUntilScrolledTo(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	below := []string{"#metrics", "#prometheus", "#launch-summary", "#timeline-h"}
	for _, sel := range below {
		assert.True(t, skipped(b, sel), "%s is skipped off screen", sel)
	}
	for _, sel := range []string{"#pipeline", "#grid", "#status", "#log", "#send", "#copy-link"} {
		assert.False(t, skipped(b, sel), "%s is always drawn", sel)
	}
	clickSel(b, "#step-back")
	waitLate(b)
	for _, sel := range below {
		b.Do(evalVoid(fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: "center"})`, sel)))
		waitFor(b, sel+" drawn once in view", fmt.Sprintf(`document.querySelector(%q).checkVisibility({contentVisibilityAuto: true})`, sel))
	}
	assert.Equal(t, "Step 23 of 24", textOf(b, "#step-pos"), "the step is kept")
	assert.NotEmpty(t, textOf(b, "#log li.selected"), "the log, drawn, shows the selected step")
}

// An embed sizes its frame to its content: none of its panels is skipped,
// so the height it reports is the height it has.
func TestAnEmbedSkipsNoPanel(t *testing.T) {
	t.Parallel()
	b := newBrowser(t)
	b.Open(serveSite(t) + compactEmbed)
	require.Greater(t, countAll(b, "#playground .panel"), 2)
	n := evalJS[int](b, `[...document.querySelectorAll("#playground .panel")].filter(el => getComputedStyle(el).contentVisibility !== "visible").length`)
	assert.Zero(t, n, "panels with content-visibility in the embed")
}
