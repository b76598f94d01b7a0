package web

import (
	"html"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

func TestMarksArePlacedByPercentAndLabelledAsText(t *testing.T) {
	marks := model.PlaceMarks([]model.TimelineMark{
		{Step: 1, Request: 1, Tenant: "A"},
		{Step: 11, Request: 1, Tenant: "A", End: true, Status: 200},
		{Step: 21, Request: 2, Tenant: `<img src=x onerror="alert(1)">`},
	}, 21)
	out := marksHTML(marks)
	assert.Equal(t, `<ol class="marks" aria-label="Where requests start and end">`+
		`<li class="mark at-0" title="r1 · A">r1 · A</li>`+
		`<li class="mark mark-end at-50" title="r1 200">r1 200</li>`+
		`<li class="mark mark-right at-100" title="r2 · &lt;img src=x onerror=&#34;alert(1)&#34;&gt;">r2 · &lt;img src=x onerror=&#34;alert(1)&#34;&gt;</li>`+
		`</ol>`, out)
	assert.NotContains(t, out, "<img", "a tenant's name is text")
	assert.Equal(t, `<ol class="marks" aria-label="Where requests start and end"></ol>`, marksHTML(nil))
}

func TestATickAndALeakSayWhatTheyAre(t *testing.T) {
	assert.Equal(t, `<li class="mark mark-end mark-tick mark-leak at-7" title="r3–r9 200 ⚠ 2 leaks">r3–r9 200 ⚠ 2 leaks</li>`,
		itemsOf([]model.PlacedMark{{At: 7, End: true, Step: 40, Label: "r3–r9 200 ⚠ 2 leaks", Leak: true}})[0])
	assert.Equal(t, []string{
		`<li class="mark mark-wide at-7" title="r3–r9 · 7 requests">r3–r9 · 7 requests</li>`,
		`<li class="mark mark-end mark-right at-95" title="r3 200">r3 200</li>`,
	}, itemsOf([]model.PlacedMark{
		{At: 7, Step: 40, Label: "r3–r9 · 7 requests", Wide: true},
		{At: 95, End: true, Step: 41, Label: "r3 200", Shown: true, Wide: true},
	}), "a label for wide tracks only; a label left of its tick in the last tenth")
}

// drawnMark is what an item of the list shows.
type drawnMark struct{ class, title, text string }

var itemRE = regexp.MustCompile(`^<li class="([^"]*)" title="([^"]*)">([^<]*)</li>$`)

// drawnOfItems reads the items marksHTML writes.
func drawnOfItems(t *testing.T, items []string) []drawnMark {
	t.Helper()
	out := []drawnMark{}
	for _, item := range items {
		m := itemRE.FindStringSubmatch(item)
		require.NotNil(t, m, "an item: %s", item)
		out = append(out, drawnMark{m[1], html.UnescapeString(m[2]), html.UnescapeString(m[3])})
	}
	return out
}

// randomRun is the placed marks of n random requests on a timeline of at
// least 2n steps.
func randomRun(rng *rand.Rand, n int) []model.PlacedMark {
	var marks []model.TimelineMark
	step := 0
	for r := 1; r <= n; r++ {
		step += 1 + rng.IntN(3)
		tenant := string(rune('A' + rng.IntN(3)))
		if rng.IntN(10) == 0 {
			tenant = `<b>&"x"`
		}
		marks = append(marks, model.TimelineMark{Step: step, Request: r, Tenant: tenant})
		step += 1 + rng.IntN(12)
		marks = append(marks, model.TimelineMark{Step: step, Request: r, Tenant: tenant, End: true, Status: []int{200, 400}[rng.IntN(2)], Leak: rng.IntN(4) == 0})
	}
	return model.PlaceMarks(marks, step+rng.IntN(5))
}

// TestPlannedMarksAreWhatAFreshListWrites: a list patched with planMarks
// holds what marksHTML writes for the new marks, over a random walk of
// Sends (one more request), new runs and runs cut short.
func TestPlannedMarksAreWhatAFreshListWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var was []model.PlacedMark
	page := drawnOfItems(t, itemsOf(was))
	n, changes := 0, 0
	for i := range 400 {
		switch k := rng.IntN(10); {
		case k < 7:
			n++ // a Send
		case k < 9:
			n = rng.IntN(300) // another run
		default:
			n = 0 // a reset
		}
		marks := randomRun(rand.New(rand.NewPCG(uint64(n), 3)), n)
		p := planMarks(was, marks)
		for _, ch := range p.changed {
			d := &page[ch.index]
			if ch.class != "" {
				d.class = ch.class
			}
			if ch.label != "" {
				d.title, d.text = ch.label, ch.label
			}
		}
		changes += len(p.changed)
		page = page[:len(page)-p.removed]
		page = append(page, drawnOfItems(t, splitItems(p.added))...)
		require.Equal(t, drawnOfItems(t, itemsOf(marks)), page, "change %d, %d requests", i, n)
		was = marks
	}
	assert.Greater(t, changes, 1000, "the walk changed items in place")
	assert.Equal(t, marksPlan{}, planMarks(was, was), "the same marks: nothing to do")
}

// itemsOf is the items marksHTML writes for marks.
func itemsOf(marks []model.PlacedMark) []string {
	list := marksHTML(marks)
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

func TestAListRenderedAfterAPatchIsANewOne(t *testing.T) {
	marks := []model.PlacedMark{{Step: 1, Label: "r1 · A", Shown: true}}
	assert.Equal(t, marksHTML(marks), marksListHTML(marks, 0))
	assert.Equal(t, `<ol class="marks" aria-label="Where requests start and end" data-gen="2"><li class="mark at-0" title="r1 · A">r1 · A</li></ol>`,
		marksListHTML(marks, 2), "go-app compares the string: a list after a patch differs from any before it")
}

// A Send's shift of every mark is patched; a regrouping of a long run's
// is rendered again.
func TestAPatchCountsItsCallsIntoJavaScript(t *testing.T) {
	assert.Equal(t, 0, planMarks(randomRun(rand.New(rand.NewPCG(4, 3)), 40), randomRun(rand.New(rand.NewPCG(4, 3)), 40)).calls())
	p := marksPlan{changed: []markChange{{index: 0, class: "mark at-1"}, {index: 1, label: "r2 200"}, {index: 2, class: "mark", label: "r3 · A"}}, removed: 2}
	assert.Equal(t, 1+2+3+2, p.calls())
	var demoShift, longRegroup int
	for n := 2; n <= 40; n++ { // Sends on a short run
		demoShift = max(demoShift, planMarks(shortRun(n-1), shortRun(n)).calls())
	}
	assert.LessOrEqual(t, demoShift, maxPatchCalls, "a short run's Send is patched")
	for n := 990; n < 1000; n++ {
		longRegroup = max(longRegroup, planMarks(shortRun(n), shortRun(n+1)).calls())
	}
	assert.Greater(t, longRegroup, maxPatchCalls, "a 1,000-request run's Send renders the list again")
}

// shortRun is n requests of ten events each, as the demo's.
func shortRun(n int) []model.PlacedMark {
	var marks []model.TimelineMark
	for r := 1; r <= n; r++ {
		marks = append(marks, model.TimelineMark{Step: 10*r - 9, Request: r, Tenant: "A"},
			model.TimelineMark{Step: 10*r - 1, Request: r, Tenant: "A", End: true, Status: 200})
	}
	return model.PlaceMarks(marks, 10*n)
}
