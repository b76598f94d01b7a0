package dom

import (
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// gridRuns is the grid's runs as a fresh render writes them.
func gridRuns(g model.GridView) []string { return Fresh(GridCells(g.Tiles), g.Cells) }

// shownCell is a cell's element as far as a patch changes it.
type shownCell struct {
	attrs map[string]string
	inner string
}

func showCell(c model.CellView, tiles bool) shownCell {
	s := shownCell{attrs: map[string]string{}}
	if tiles {
		s.inner = cellInner(c)
	}
	for _, a := range cellAttrs(c, tiles) {
		s.attrs[a.Name] = a.Value
	}
	return s
}

func (s *shownCell) apply(c Change) {
	for _, a := range c.Attrs {
		s.attrs[a.Name] = a.Value
	}
	if c.SetInner {
		s.inner = c.Inner
	}
}

// stepCells are the cells of the demo and 681,280-page runs at every step,
// as tiles and as cells.
func stepCells(t *testing.T) (tiles, cells []model.CellView) {
	t.Helper()
	for _, slug := range []string{"demo", "glm-launch", "abort-both"} {
		s := model.NewSession()
		require.NoError(t, s.LoadPreset(slug))
		for step := 0; step <= s.Steps(); step++ {
			require.NoError(t, s.SelectStep(step))
			g, err := s.Grid(model.MaxGridCells)
			require.NoError(t, err)
			if g.Tiles {
				tiles = append(tiles, g.Cells...)
			} else {
				cells = append(cells, g.Cells...)
			}
		}
	}
	require.NotEmpty(t, tiles)
	require.NotEmpty(t, cells)
	return tiles, cells
}

// A change turns a cell's element into another cell's, and changes nothing
// when the cell is the same.
func TestACellChangeTurnsOneCellIntoAnother(t *testing.T) {
	tiles, cells := stepCells(t)
	r := rand.New(rand.NewPCG(7, 7))
	for _, kind := range []struct {
		tiles bool
		cells []model.CellView
	}{{true, tiles}, {false, cells}} {
		k := GridCells(kind.tiles)
		changed := 0
		for range 2000 {
			a, b := kind.cells[r.IntN(len(kind.cells))], kind.cells[r.IntN(len(kind.cells))]
			el := showCell(a, kind.tiles)
			c := k.Change(a, b)
			el.apply(c)
			require.Equal(t, showCell(b, kind.tiles), el, "tiles=%v\n%+v\n→ %+v", kind.tiles, a, b)
			if c.calls() > 0 {
				changed++
			}
			assert.Equal(t, Change{}, k.Change(b, b), "the same cell")
		}
		assert.Greater(t, changed, 1000, "tiles=%v: most pairs differ", kind.tiles)
	}
}

// The change's values are the escaped markup's: a tenant's name or secret
// is text in an attribute and escaped in the content.
func TestACellChangeCarriesTextNotMarkup(t *testing.T) {
	bad := model.CellView{Page: "3", Owner: `<img src=x onerror=alert(1)>`, Mark: `<b>`, Writer: `r1 <i>`, Text: `</span><script>alert(1)</script>`, Label: "x"}
	c := GridCells(true).Change(model.CellView{Page: "3", Label: "x"}, bad)
	require.True(t, c.SetInner)
	assert.NotContains(t, c.Inner, "<script")
	assert.NotContains(t, c.Inner, "<b>")
	assert.Contains(t, c.Inner, html.EscapeString(bad.Text))
	owner := ""
	for _, a := range c.Attrs {
		if a.Name == "data-owner" {
			owner = a.Value
		}
	}
	assert.Equal(t, bad.Owner, owner, "setAttribute takes the text as it is")
}

// Runs built after a patch are a new generation: each unlike the last
// generation's, and the first generation writes no mark.
func TestANewGenerationOfRunsDiffersFromTheLast(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	var is Island[model.CellView]
	first := is.Render(GridCells(false), g.Cells)
	assert.Equal(t, gridRuns(g), first)
	assert.NotContains(t, strings.Join(first, ""), "data-gen")
	is.spoil() // as a patch that found the page unlike the island leaves it
	second := is.Render(GridCells(false), g.Cells)
	require.Len(t, second, len(first))
	for i := range first {
		assert.NotEqual(t, first[i], second[i], "run %d", i)
		assert.Equal(t, first[i], strings.Replace(second[i], ` data-gen="1"`, "", 1), "run %d: only the mark differs", i)
	}
}

func TestGridHTMLEscapesAndCarriesEveryHook(t *testing.T) {
	g := presetGrid(t, "glm-remediated")
	runs := gridRuns(g)
	require.Len(t, runs, model.MaxGridCells/GridRun)
	out := strings.Join(runs, "")
	assert.Equal(t, model.MaxGridCells, strings.Count(out, `data-owner="`), "every cell carries data-owner, empty when none")
	assert.Contains(t, out, `data-owner=""`)
	assert.Equal(t, model.MaxGridCells, strings.Count(out, `tabindex="-1"`), "no tab stop in the markup: it is set on the element")

	s := model.NewSession()
	typeRequest(t, s, "B", "3", `</button><script>alert(1)</script>`)
	require.NoError(t, s.SetText(model.TenantName, `<img src=x onerror=alert(1)>"`))
	require.NoError(t, s.Rename())
	require.NoError(t, s.Send())
	g, err := s.Grid(model.MaxGridCells)
	require.NoError(t, err)
	out = strings.Join(gridRuns(g), "")
	assert.NotContains(t, out, "<img")
	assert.NotContains(t, out, "<script")
	assert.Contains(t, out, "&lt;img src=x onerror=alert(1)&gt;&#34;")
	assert.Contains(t, out, "&lt;/button&gt;&lt;script&gt;")
}

// A changed cell changes only its run: go-app then replaces that one raw
// element and leaves the others' DOM alone.
func TestGridRunsChangeOnlyWhereACellDid(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	before := gridRuns(g)
	changed := g
	changed.Cells = slices.Clone(g.Cells)
	changed.Cells[GridRun+5].Name += " (changed)"
	after := gridRuns(changed)
	require.Len(t, after, len(before))
	for i := range before {
		if i == 1 {
			assert.NotEqual(t, before[i], after[i], "the changed cell's run")
		} else {
			assert.Equal(t, before[i], after[i], "run %d", i)
		}
	}
	idx := regexp.MustCompile(`data-idx="(\d+)"`).FindAllStringSubmatch(strings.Join(before, ""), -1)
	require.Len(t, idx, len(g.Cells), "the runs hold every cell once")
	for i, m := range idx {
		require.Equal(t, strconv.Itoa(i), m[1], "in order")
	}
}

// presetGrid is the full grid of a preset's run at its latest step.
func presetGrid(t *testing.T, slug string) model.GridView {
	t.Helper()
	s := model.NewSession()
	require.NoError(t, s.LoadPreset(slug))
	g, err := s.Grid(model.MaxGridCells)
	require.NoError(t, err)
	return g
}

// The island renders what a fresh one renders, across steps, zooms and a
// switch to tiles, and hands back the very strings of the runs that did
// not change.
func TestTheGridIslandRendersWhatAFreshOneRenders(t *testing.T) {
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	var is Island[model.CellView]
	r := rand.New(rand.NewPCG(4, 4))
	reused := 0
	for i := range 30 {
		require.NoError(t, s.SelectStep(r.IntN(s.Steps()+1)))
		if i == 20 {
			require.NoError(t, s.Zoom(0, 40)) // tiles
		}
		g, err := s.Grid(model.MaxGridCells)
		require.NoError(t, err)
		before := slices.Clone(is.out)
		got := is.Render(GridCells(g.Tiles), g.Cells)
		require.Equal(t, gridRuns(g), got, "render %d", i)
		for j := range min(len(before), len(got)) {
			if before[j] == got[j] && sameBytes(before[j], got[j]) {
				reused++
			}
		}
	}
	assert.Greater(t, reused, 100, "unchanged runs are reused, not built again")
}

// sameBytes reports whether a and b share their bytes: the island kept the
// string rather than building an equal one.
func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

// typeRequest fills the request form as a reader would.
func typeRequest(t testing.TB, s *model.Session, tenant, tokens, content string) {
	t.Helper()
	require.NoError(t, s.SelectTenant(tenant))
	require.NoError(t, s.SetText(model.PromptTokens, tokens))
	require.NoError(t, s.SetText(model.Secret, content))
}

// The plan of a scrubber move across B's reservation at glm-launch: the
// changes of the 440 cells it restates, both ways.
func BenchmarkGridPatchPlan(b *testing.B) {
	s := model.NewSession()
	require.NoError(b, s.LoadPreset("glm-launch"))
	grid := func(step int) []model.CellView {
		require.NoError(b, s.ScrubTo(step))
		g, err := s.Grid(model.MaxGridCells)
		require.NoError(b, err)
		return g.Cells
	}
	at, to := grid(s.Steps()/2), grid(s.Steps()-1)
	k := GridCells(false)
	b.ReportAllocs()
	for b.Loop() {
		PlanPatch(k, at, to)
		PlanPatch(k, to, at)
	}
}

// A cell whose looks alone change (most cells of a scrub at launch scale)
// changes its class only, from a kept slice: no allocation a cell.
func TestACellWhoseLooksChangeChangesItsClassOnly(t *testing.T) {
	was := model.CellView{Page: "1–1,331", Owner: "A", State: "allocated", Tenant: 0, Mark: "A", Name: "pages 1–1,331: A"}
	now := was
	now.State = "stale"
	k := GridCells(false)
	c := k.Change(was, now)
	require.Equal(t, []Attr{{"class", CellClass(now)}}, c.Attrs)
	assert.False(t, c.SetInner)
	assert.Same(t, &c.Attrs[0], &k.Change(was, now).Attrs[0], "the same class: the same kept slice")
	el := showCell(was, false)
	el.apply(c)
	assert.Equal(t, showCell(now, false), el)
	assert.Zero(t, testing.AllocsPerRun(100, func() { k.Change(was, now) }))
}
