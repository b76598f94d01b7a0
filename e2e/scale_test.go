package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The grid's DOM bound: above it, each cell stands for a range of pages.
const maxGridCells = 512

var rangeHook = regexp.MustCompile(`^(\d+)-(\d+)$`)

// pageRange parses a range cell's data-page.
func pageRange(t *testing.T, page string) (first, last int) {
	t.Helper()
	m := rangeHook.FindStringSubmatch(page)
	require.NotNil(t, m, "data-page %q is not a first-last range", page)
	first, _ = strconv.Atoi(m[1])
	last, _ = strconv.Atoi(m[2])
	return first, last
}

// TestRealScalePreset loads GLM-5.3 at launch (prefill's pool of 681,280
// one-token pages, decode's, the grid, of 1,048,576), sends a request into
// it, and zooms from the whole of decode's pool down to pages.
func TestRealScalePreset(t *testing.T) {
	t.Parallel()
	b := openPlayground(t)
	choosePreset(b, "glm-launch")
	waitFor(b, "the real-scale grid", jsExists(`#grid .cell[data-page*="-"]`))
	assert.Contains(t, textOf(b, "#capacity"), "681,280", "the capacity check names prefill's pool")

	all := gridCells(b, "")
	require.NotEmpty(t, all)
	assert.LessOrEqual(t, len(all), maxGridCells, "cells in the grid")
	_, end := pageRange(t, all[len(all)-1].Page)
	assert.Equal(t, 1_048_575, end, "the last cell ends at decode's pool's last page")
	var leakedRanges []gridCell
	for _, c := range gridCells(b, ".state-leaked") {
		if strings.Contains(c.Page, "-") {
			leakedRanges = append(leakedRanges, c)
		}
	}
	assert.NotEmpty(t, leakedRanges, "a leaked range cell")
	assert.Equal(t, "200", textOf(b, "#status"))

	t.Run("cell hooks", func(t *testing.T) {
		withT(b, t)
		assertCellHooks(t, b) // free range cells included
	})

	t.Run("End key reaches the last cell", func(t *testing.T) {
		// The grid grew from the demo's 8 cells to hundreds: the arrow
		// keys must know the new size.
		withT(b, t)
		n := countAll(b, "#grid .cell")
		b.Do(chromedp.Focus(chromedp.CSS("#grid .cell:first-child")))
		waitFor(b, "the first cell focused", `document.activeElement === document.querySelector("#grid .cell:first-child")`)
		pressKeys(b, kb.End)
		waitFor(b, "focus to move", `document.activeElement !== document.querySelector("#grid .cell:first-child")`)
		got := evalJS[int](b, `[...document.querySelectorAll("#grid .cell")].indexOf(document.activeElement)`)
		assert.Equal(t, n-1, got, "End focuses the last of %d cells", n)
	})

	t.Run("send", func(t *testing.T) {
		withT(b, t)
		before := readState(b)
		sendRequest(b, "A", "1,000", "")
		after := readState(b)
		assert.Equal(t, "200", after.Status)
		assert.Contains(t, textOf(b, ".status-who"), "tenant A")
		assert.Contains(t, textOf(b, ".status-who"), "1,000 tokens")
		assert.Greater(t, after.LogRows, before.LogRows)
		want := glmLaunchThenA1000(t)
		assert.Equal(t, want.Pool, gridPool(b), "#grid after A's request")
		assert.Equal(t, want.Verdict, after.Verdict)
		last := logRows(b)
		require.NotEmpty(t, last)
		assert.Contains(t, last[len(last)-1].Text, "r5 · A", "the newest log row is the new request's (after A, D, C and B)")
	})

	t.Run("zoom", func(t *testing.T) {
		withT(b, t)
		require.Equal(t, 0, countAll(b, "#zoom-out"), "the whole pool is shown")
		first := gridCells(b, ":first-child")[0]
		lo, hi := pageRange(t, first.Page)

		// Zoom into the first range: still too many pages for one cell each.
		clickSel(b, fmt.Sprintf(`#grid .cell[data-page=%s]`, jsLit(first.Page)))
		waitFor(b, "zoomed in", jsExists("#zoom-out"))
		zoomed := gridCells(b, "")
		require.NotEmpty(t, zoomed)
		assert.LessOrEqual(t, len(zoomed), maxGridCells)
		assert.True(t, strings.HasPrefix(zoomed[0].Page, strconv.Itoa(lo)), "first cell %s starts at %d", zoomed[0], lo)
		lastPage := zoomed[len(zoomed)-1].Page
		assert.True(t, strings.HasSuffix(lastPage, strconv.Itoa(hi)), "last cell %s ends at %d", lastPage, hi)

		// Zoom further until each cell is one page.
		for i := 0; i < 5 && strings.Contains(gridCells(b, ":first-child")[0].Page, "-"); i++ {
			c := gridCells(b, ":first-child")[0]
			clickSel(b, fmt.Sprintf(`#grid .cell[data-page=%s]`, jsLit(c.Page)))
			waitFor(b, "zoomed into "+c.Page, fmt.Sprintf(`document.querySelector("#grid .cell:first-child").dataset.page !== %s`, jsLit(c.Page)))
		}
		single := regexp.MustCompile(`^\d+$`)
		pages := gridCells(b, "")
		require.NotEmpty(t, pages)
		for _, c := range pages {
			assert.Regexp(t, single, c.Page, "a single-page cell after zooming in")
		}
		label := evalJS[string](b, `document.querySelector("#grid .cell:first-child").getAttribute("aria-label")`)
		assert.Regexp(t, `(^| — )Page \d+:`, label, "a page's own label: %q", label)

		clickSel(b, "#zoom-out")
		waitFor(b, "the whole pool again", `document.querySelector("#zoom-out") === null`)
		all := gridCells(b, "")
		assert.LessOrEqual(t, len(all), maxGridCells)
		_, end := pageRange(t, all[len(all)-1].Page)
		assert.Equal(t, 1_048_575, end)
	})
}

// A click as a person makes it, the button held down a while, on a cell
// that did not have the focus: mousedown focuses the cell, and the zoom
// still happens (a render on focus replaced the cell's run before mouseup,
// and the browser fired no click).
func TestHeldClickOnAnUnfocusedCellZooms(t *testing.T) {
	t.Parallel()
	b := openHooked(t)
	choosePreset(b, "glm-launch")
	waitFor(b, "the real-scale grid", jsExists(`#grid .cell[data-page*="-"]`))
	sel := `#grid .cell[data-idx="3"]`
	settleInView(b, fmt.Sprintf(`document.querySelector(%s)`, jsLit(sel)))
	require.Equal(t, -1, evalJS[int](b, `document.querySelector(`+jsLit(sel)+`).tabIndex`), "cell 3 is not the tab stop")
	page := evalJS[string](b, `document.querySelector(`+jsLit(sel)+`).dataset.page`)
	pt := evalJS[[]float64](b, `(() => { const r = document.querySelector(`+jsLit(sel)+`).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	require.Len(t, pt, 2)
	b.Do(chromedp.MouseEvent(chromedp.MousePressed, pt[0], pt[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	waitFor(b, "cell 3 focused and the tab stop", `document.activeElement === document.querySelector(`+jsLit(sel)+`) && document.activeElement.tabIndex === 0`)
	settle(b) // a person's click: the render that the focus asked for comes before the button is up
	b.Do(chromedp.MouseEvent(chromedp.MouseReleased, pt[0], pt[1], chromedp.ButtonLeft, chromedp.ClickCount(1)))
	waitFor(b, "zoomed into "+page, jsExists("#zoom-out"))
	first, _ := pageRange(t, page)
	assert.True(t, strings.HasPrefix(gridCells(b, "")[0].Page, strconv.Itoa(first)), "the grid starts at the cell's first page")
	assert.Equal(t, 1, countAll(b, `#grid [tabindex="0"]`), "one tab stop")
}
