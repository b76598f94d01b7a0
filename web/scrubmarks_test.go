package web

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"kvleak/web/model"
)

func TestMarksArePlacedByPercentAndLabelledAsText(t *testing.T) {
	marks := []model.TimelineMark{
		{Step: 1, Label: "r1 · A"},
		{Step: 11, Label: "r1 200", End: true},
		{Step: 21, Label: `r2 · <img src=x onerror="alert(1)">`},
	}
	out := marksHTML(marks, 21)
	assert.Equal(t, `<ol class="marks" aria-label="Where each request starts and ends">`+
		`<li class="mark at-0" data-step="1">r1 · A</li>`+
		`<li class="mark mark-end at-50" data-step="11">r1 200</li>`+
		`<li class="mark at-100" data-step="21">r2 · &lt;img src=x onerror=&#34;alert(1)&#34;&gt;</li>`+
		`</ol>`, out)
	assert.NotContains(t, out, "<img", "a tenant's name is text")
	assert.Equal(t, `<ol class="marks" aria-label="Where each request starts and ends"></ol>`, marksHTML(nil, 0))
	one := marksHTML([]model.TimelineMark{{Step: 1, Label: "r1 · A"}}, 1)
	assert.True(t, strings.Contains(one, `class="mark at-0"`), "a one-step timeline puts its mark at the start: %s", one)
}

func TestKeptMarksFollowTheTimeline(t *testing.T) {
	var c marksCache
	marks := []model.TimelineMark{{Step: 1, Label: "r1 · A"}, {Step: 11, Label: "r1 200", End: true}}
	first := c.get(marks, 20)
	assert.Equal(t, marksHTML(marks, 20), first)
	assert.True(t, sameBytes(first, c.get(marks, 20)), "the same marks: the kept string")
	assert.Equal(t, marksHTML(marks, 30), c.get(marks, 30), "a longer timeline moves them")
	more := append(slices.Clone(marks), model.TimelineMark{Step: 21, Label: "r2 · B"})
	assert.Equal(t, marksHTML(more, 30), c.get(more, 30), "new marks")
	changed := slices.Clone(more)
	changed[0].Label = "r1 · C"
	assert.Equal(t, marksHTML(changed, 30), c.get(changed, 30), "other marks of the same count")
	assert.Equal(t, marksHTML(nil, 30), c.get(nil, 30), "none")
}
