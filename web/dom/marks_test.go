package dom

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
	out := MarksHTML(marks)
	assert.Equal(t, `<ol class="marks" aria-label="Where requests start and end">`+
		`<li class="mark at-0" title="r1 · A">r1 · A</li>`+
		`<li class="mark mark-end at-50" title="r1 200">r1 200</li>`+
		`<li class="mark mark-right at-100" title="r2 · &lt;img src=x onerror=&#34;alert(1)&#34;&gt;">r2 · &lt;img src=x onerror=&#34;alert(1)&#34;&gt;</li>`+
		`</ol>`, out)
	assert.NotContains(t, out, "<img", "a tenant's name is text")
	assert.Equal(t, `<ol class="marks" aria-label="Where requests start and end"></ol>`, MarksHTML(nil))
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

// drawnOfItems reads the items MarksHTML writes.
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

// TestPlannedMarksAreWhatAFreshListWrites: a list patched with PlanPatch
// holds what MarksHTML writes for the new marks, over a random walk of
// Sends (one more request), new runs and runs cut short.
func TestPlannedMarksAreWhatAFreshListWrites(t *testing.T) {
	var was []model.PlacedMark
	page := drawnOfItems(t, itemsOf(was))
	changes := 0
	for i, marks := range marksWalk(400) {
		p := PlanPatch(Marks, was, marks)
		for _, ch := range p.Changes {
			d := &page[ch.Index]
			for _, a := range ch.Attrs {
				switch a.Name {
				case "class":
					d.class = a.Value
				case "title":
					d.title = a.Value
				default:
					t.Fatalf("an attribute a mark does not have: %s", a.Name)
				}
			}
			if ch.SetInner {
				d.text = html.UnescapeString(ch.Inner)
			}
		}
		changes += len(p.Changes)
		page = page[:len(page)-p.Removed]
		page = append(page, drawnOfItems(t, splitItems(p.Added))...)
		require.Equal(t, drawnOfItems(t, itemsOf(marks)), page, "change %d, %d marks", i, len(marks))
		was = marks
	}
	assert.Greater(t, changes, 1000, "the walk changed items in place")
	assert.Equal(t, Plan{}, PlanPatch(Marks, was, was), "the same marks: nothing to do")
}

// marksWalk is the marks of a random walk of changes: mostly Sends (one
// more request), some new runs and resets.
func marksWalk(changes int) [][]model.PlacedMark {
	rng := rand.New(rand.NewPCG(7, 11))
	var out [][]model.PlacedMark
	n := 0
	for range changes {
		switch k := rng.IntN(10); {
		case k < 7:
			n++ // a Send
		case k < 9:
			n = rng.IntN(300) // another run
		default:
			n = 0 // a reset
		}
		out = append(out, randomRun(rand.New(rand.NewPCG(uint64(n), 3)), n))
	}
	return out
}

// itemsOf is the items MarksHTML writes for marks.
func itemsOf(marks []model.PlacedMark) []string {
	list := MarksHTML(marks)
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
	var is Island[model.PlacedMark]
	assert.Equal(t, []string{MarksHTML(marks)}, is.Render(Marks, marks))
	is.spoil()
	is.spoil()
	assert.Equal(t, []string{`<ol class="marks" aria-label="Where requests start and end" data-gen="1"><li class="mark at-0" title="r1 · A">r1 · A</li></ol>`},
		is.Render(Marks, marks), "go-app compares the string: a list after a patch differs from any before it")
}

// A Send's shift of every mark is patched; a regrouping of a long run's
// is rendered again.
func TestAPatchCountsItsCallsIntoJavaScript(t *testing.T) {
	assert.Equal(t, 0, PlanPatch(Marks, randomRun(rand.New(rand.NewPCG(4, 3)), 40), randomRun(rand.New(rand.NewPCG(4, 3)), 40)).Calls())
	p := Plan{Changes: []Change{
		{Index: 0, Attrs: []Attr{{"class", "mark at-1"}}},
		{Index: 1, Attrs: []Attr{{"title", "r2 200"}}, Inner: "r2 200", SetInner: true},
		{Index: 2, Attrs: []Attr{{"class", "mark"}, {"title", "r3 · A"}}, Inner: "r3 · A", SetInner: true},
	}, Removed: 2}
	assert.Equal(t, 1+2+3+2, p.Calls())
	var demoShift, longRegroup int
	for n := 2; n <= 40; n++ { // Sends on a short run
		demoShift = max(demoShift, PlanPatch(Marks, shortRun(n-1), shortRun(n)).Calls())
	}
	assert.LessOrEqual(t, demoShift, MaxPatchCalls, "a short run's Send is patched")
	for n := 990; n < 1000; n++ {
		longRegroup = max(longRegroup, PlanPatch(Marks, shortRun(n), shortRun(n+1)).Calls())
	}
	assert.Greater(t, longRegroup, MaxPatchCalls, "a 1,000-request run's Send renders the list again")
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
