package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/internal/testskip"
)

// axeSource reads axe-core from node_modules (`npm ci` installs it, pinned
// in package.json). Without it the test skips, loudly; under CI it fails.
func axeSource(t *testing.T) string {
	t.Helper()
	path := filepath.Join(repoRoot(t), "node_modules", "axe-core", "axe.min.js")
	src, err := os.ReadFile(path)
	if err != nil {
		testskip.Need(t, fmt.Sprintf("NO AXE-CORE at %s: accessibility checks did not run (npm ci)", path))
	}
	return string(src)
}

// axeTags are the WCAG 2.x A and AA rule sets the playground must pass.
const axeTags = `['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']`

// axeViolation is one failed rule, with every element that fails it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	URL    string `json:"helpUrl"`
	Nodes  []struct {
		Target  string `json:"target"`
		Summary string `json:"summary"`
	} `json:"nodes"`
}

func (v axeViolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s — %s", v.ID, v.Impact, v.Help, v.URL)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n      %s\n        %s", n.Target, strings.ReplaceAll(n.Summary, "\n", "\n        "))
	}
	return b.String()
}

// runAxe injects axe-core with Runtime.evaluate (which the page's CSP does
// not govern; a <script src> from elsewhere would be blocked) and runs it
// on the whole document.
func runAxe(b *browser, src string) []axeViolation {
	b.t.Helper()
	return runAxeIn(b, src, "document")
}

// runAxeIn runs axe on part of the page: context is axe's, a JS expression
// such as {include: ["#challenge"]}. On the whole page axe takes 2–3 s, on
// one panel a tenth of that.
func runAxeIn(b *browser, src, context string) []axeViolation {
	b.t.Helper()
	if !evalJS[bool](b, `typeof axe === "object"`) { // once per page
		b.Do(chromedp.Evaluate[chromedp.Void](src + "\n;void 0"))
	}
	return run(b, chromedp.Evaluate[[]axeViolation](`axe.run(`+context+`, {
		runOnly: {type: 'tag', values: `+axeTags+`},
		resultTypes: ['violations'],
	}).then(r => r.violations.map(v => ({
		id: v.id, impact: v.impact || "", help: v.help, helpUrl: v.helpUrl,
		nodes: v.nodes.map(n => ({target: n.target.flat(Infinity).join(" "), summary: n.failureSummary || ""})),
	})))`, chromedp.EvalAwaitPromise))
}

// TestAccessibility runs axe-core's WCAG 2.2 AA rules on each view of the
// demo and fails listing every violation. Views of one page are looked at
// in turn on one load: the whole page first, then what each change adds
// (the pool table, the filled share panel, the maps at launch scale) in
// the part it changes, and the whole page again in the dark theme. The
// challenge panel is TestChallengePanelAccessibility's.
func TestAccessibility(t *testing.T) {
	t.Parallel()
	src := axeSource(t)
	site := serveSite(t)
	p := mustPreset(t, "demo")
	want := expectAt(t, p.Slug, 0)
	const (
		page     = "document"
		poolPart = `{include: ["#pool-panel"]}`
	)
	type look struct {
		name, axeContext string
		prepare          func(b *browser)
	}
	pages := []struct {
		name, query string
		looks       []look
	}{
		{"main", demoQuery, []look{
			{"main", page, nil},
			{"table", poolPart, func(b *browser) {
				b.Do(chromedp.Click(chromedp.ID("table-toggle")))
				waitFor(b, "the pool table", `!!document.getElementById("pool-table")`)
			}},
			{"share panel filled", `{include: ["#share"]}`, func(b *browser) {
				b.Do(chromedp.Click(chromedp.ID("copy-link")), chromedp.Click(chromedp.ID("embed")))
				waitFor(b, "the link and the snippet", `!!(document.getElementById("share-url") && document.getElementById("embed-snippet"))`)
			}},
			{"main, dark", page, func(b *browser) { b.emulateMedia("prefers-color-scheme", "dark") }},
			{"pool maps at launch scale, dark", poolPart, launchMaps},
			{"pool maps at launch scale", poolPart, func(b *browser) { b.emulateMedia("prefers-color-scheme", "light") }},
		}},
		{"embed", demoQuery + "&embed=1", []look{{"embed", page, nil}}},
		{"side by side", demoQuery + "&compare=1", []look{{"side by side", page, nil}}},
		{"banner", "v=9&preset=demo", []look{{"banner", `{include: ["#banner"]}`, func(b *browser) {
			waitFor(b, "the banner", `!!document.getElementById("banner")`)
		}}}},
	}
	for _, pg := range pages {
		t.Run(pg.name, func(t *testing.T) {
			t.Parallel()
			b := newBrowser(t)
			b.Open(site + "?" + pg.query)
			waitShows(b, "the demo", want)
			for _, l := range pg.looks {
				if l.prepare != nil {
					l.prepare(b)
				}
				violations := runAxeIn(b, src, l.axeContext)
				for _, viol := range violations {
					t.Errorf("axe, %s: %s", l.name, viol)
				}
				t.Logf("%s: %d axe violations", l.name, len(violations))
			}
		})
	}
}

// launchMaps shows the launch preset's pool maps with their spans.
func launchMaps(b *browser) {
	choosePreset(b, "glm-launch")
	waitFor(b, "the maps' spans", `document.querySelectorAll("#pool-map-regions .region").length > 0 && document.querySelectorAll("#prefill-map-regions .region").length > 0`)
}

// TestScreenReaderBits checks what axe cannot judge: the live region says
// what happened, and every grid cell is a focusable button named by its page.
func TestScreenReaderBits(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	p := mustPreset(t, "demo")
	want := expectAt(t, p.Slug, 0)
	b.Open(site + "?" + demoQuery)
	s := waitShows(b, "the demo", want)

	// The live region announces the leak, in words.
	region := run(b, chromedp.Evaluate[map[string]string](`(() => {
		const e = document.getElementById("announce");
		return {role: e.getAttribute("role"), live: e.getAttribute("aria-live") || ""};
	})()`))
	assert.Equal(t, map[string]string{"role": "status", "live": "polite"}, region)
	assert.Equal(t, "7 pages of tenant A leaked to tenant B", s.Announce)
	assert.Equal(t, want.Announce, s.Announce)

	// It follows the run: the fixed door's 400 is announced too.
	b.Do(chromedp.SetValue(chromedp.ID("mode"), string(engine.Fixed)))
	wantFixed := expectAt(t, "demo-fixed", 0) // the demo behind the fixed door
	waitView(b, "the fixed door's announcement", func(s pageView) bool { return s.Announce == wantFixed.Announce })

	// Every cell: a button labelled with its page. The grid is one tab
	// stop (a roving tabindex): one cell has tabIndex 0, the others -1.
	b.Do(chromedp.SetValue(chromedp.ID("mode"), string(engine.Vulnerable)))
	waitShows(b, "the demo again", want)
	type cell struct {
		Tag      string `json:"tag"`
		Page     string `json:"page"`
		Label    string `json:"label"`
		TabIndex int    `json:"tabIndex"`
		Disabled bool   `json:"disabled"`
	}
	cellsJS := `[...document.querySelectorAll("#grid .cell")].map(e => ({
		tag: e.tagName, page: e.dataset.page, label: e.getAttribute("aria-label") || "",
		tabIndex: e.tabIndex, disabled: !!e.disabled}))`
	cells := run(b, chromedp.Evaluate[[]cell](cellsJS))
	require.Len(t, cells, engine.DemoConfig().PagesOf(engine.ServerDecode), "one cell per page of the demo's decode pool")
	for i, c := range cells {
		assert.Equal(t, "BUTTON", c.Tag, "cell %d", i)
		assert.False(t, c.Disabled, "cell %d", i)
		index, err := strconv.Atoi(c.Page) // data-page is the engine's index
		require.NoError(t, err)
		assert.Contains(t, c.Label, "Page "+strconv.Itoa(engine.PageID(index))+":", "cell %d's label names its page by SGLang's id", i)
	}
	tabStops := func() []int {
		var stops []int
		for i, c := range run(b, chromedp.Evaluate[[]cell](cellsJS)) {
			if c.TabIndex == 0 {
				stops = append(stops, i)
			}
		}
		return stops
	}
	assert.Equal(t, []int{0}, tabStops(), "the grid is one tab stop, on its first cell")

	type focus struct {
		Page   string `json:"page"`
		InGrid bool   `json:"inGrid"`
	}
	focused := func() focus {
		return run(b, chromedp.Evaluate[focus](`({page: document.activeElement.dataset.page || "",
			inGrid: !!document.activeElement.closest("#grid")})`))
	}
	details := func(label string) {
		t.Helper()
		waitFor(b, "#cell-details for the focused cell", `document.getElementById("cell-details").textContent === `+jsLit(label))
	}

	// Tab enters the grid on its tab stop; the arrow keys walk every cell,
	// each showing its details; Tab leaves and Shift+Tab comes back to the
	// cell last focused.
	// From the allocator's "why?", the last tab stop before the grid.
	b.Do(chromedp.Focus(chromedp.JSPath(`document.getElementById("pool-note").closest("details").querySelector("summary")`)), chromedp.KeyEvent(kb.Tab))
	assert.Equal(t, focus{Page: cells[0].Page, InGrid: true}, focused(), "Tab enters the grid on its first cell")
	details(cells[0].Label)
	for i := 1; i < len(cells); i++ {
		b.Do(chromedp.KeyEvent(kb.ArrowRight))
		waitFor(b, "ArrowRight to cell "+cells[i].Page, `document.activeElement.dataset.page === `+jsLit(cells[i].Page))
		details(cells[i].Label)
	}
	last := len(cells) - 1
	waitFor(b, "the roving tab stop on the last cell", `document.querySelectorAll("#grid .cell")[`+strconv.Itoa(last)+`].tabIndex === 0`)
	assert.Equal(t, []int{last}, tabStops(), "the tab stop follows the focus")
	b.Do(chromedp.KeyEvent(kb.Home))
	waitFor(b, "Home to the first cell", `document.activeElement.dataset.page === `+jsLit(cells[0].Page))
	b.Do(chromedp.KeyEvent(kb.End))
	waitFor(b, "End to the last cell", `document.activeElement.dataset.page === `+jsLit(cells[last].Page))
	b.Do(chromedp.KeyEvent(kb.Tab))
	assert.False(t, focused().InGrid, "Tab leaves the grid")
	b.Do(chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	assert.Equal(t, focus{Page: cells[last].Page, InGrid: true}, focused(), "Shift+Tab returns to the cell last focused")
}
