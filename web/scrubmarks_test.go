package web

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// TestPlannedMarksAreWhatAFreshListWrites: a list patched with planMarks
// (a Send: more marks, a longer timeline) holds what marksHTML writes for
// the new marks, over a random run of 300 patches.
func TestPlannedMarksAreWhatAFreshListWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var was []model.TimelineMark
	wasOf := 1
	page := itemsOf(was, wasOf)
	moves := 0
	for n := range 300 {
		marks, of := slices.Clone(was), wasOf+rng.IntN(12)
		for range rng.IntN(3) {
			of++
			marks = append(marks, model.TimelineMark{Step: of, Label: "r" + strconv.Itoa(n) + " · <B>", End: rng.IntN(2) == 0})
		}
		p, ok := planMarks(was, wasOf, marks, of)
		require.True(t, ok, "patch %d: the marks on the page begin the new ones", n)
		for _, m := range p.moved {
			page[m.index] = withClass(page[m.index], m.class)
		}
		moves += len(p.moved)
		page = append(page, splitItems(p.added)...)
		require.Equal(t, itemsOf(marks, of), page, "patch %d", n)
		was, wasOf = marks, of
	}
	assert.Greater(t, moves, 1000, "the longer timelines moved marks")
	p, ok := planMarks(was, wasOf, was, wasOf)
	assert.True(t, ok)
	assert.Equal(t, marksPlan{}, p, "the same marks: nothing to do")
	changed := slices.Clone(was)
	changed[3].Label = "r3 · C"
	for what, marks := range map[string][]model.TimelineMark{
		"fewer marks": was[:len(was)-1], "another first mark": was[1:], "a label changed": changed, "none": nil,
	} {
		_, ok := planMarks(was, wasOf, marks, wasOf)
		assert.False(t, ok, "%s: the list renders again", what)
	}
}

// itemsOf is the items marksHTML writes for marks.
func itemsOf(marks []model.TimelineMark, of int) []string {
	list := marksHTML(marks, of)
	_, items, _ := strings.Cut(list, ">")
	return splitItems(strings.TrimSuffix(items, "</ol>"))
}

func splitItems(s string) []string {
	var items []string
	for item := range strings.SplitAfterSeq(s, "</li>") {
		if item != "" {
			items = append(items, item)
		}
	}
	return items
}

// withClass is item with its class attribute set to cls.
func withClass(item, cls string) string {
	before, rest, _ := strings.Cut(item, `class="`)
	_, after, _ := strings.Cut(rest, `"`)
	return before + `class="` + cls + `"` + after
}

func TestAListRenderedAfterAPatchIsANewOne(t *testing.T) {
	marks := []model.TimelineMark{{Step: 1, Label: "r1 · A"}}
	assert.Equal(t, marksHTML(marks, 5), marksListHTML(marks, 5, 0))
	assert.Equal(t, `<ol class="marks" aria-label="Where each request starts and ends" data-gen="2"><li class="mark at-0" data-step="1">r1 · A</li></ol>`,
		marksListHTML(marks, 5, 2), "go-app compares the string: a list after a patch differs from any before it")
}
