package web

import (
	"html"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

// shownCell is a cell's element as far as a patch changes it.
type shownCell struct {
	attrs map[string]string
	inner string
}

func showCell(c model.CellView, tiles bool) shownCell {
	s := shownCell{attrs: map[string]string{}, inner: cellInner(c, tiles)}
	for _, a := range cellAttrs(c) {
		s.attrs[a.name] = a.value
	}
	return s
}

func (s *shownCell) apply(p cellPatch) {
	for _, a := range p.attrs {
		s.attrs[a.name] = a.value
	}
	if p.setInner {
		s.inner = p.inner
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

// A patch turns a cell's element into another cell's, and changes nothing
// when the cell is the same.
func TestACellPatchTurnsOneCellIntoAnother(t *testing.T) {
	tiles, cells := stepCells(t)
	r := rand.New(rand.NewPCG(7, 7))
	for _, kind := range []struct {
		tiles bool
		cells []model.CellView
	}{{true, tiles}, {false, cells}} {
		changed := 0
		for range 2000 {
			a, b := kind.cells[r.IntN(len(kind.cells))], kind.cells[r.IntN(len(kind.cells))]
			el := showCell(a, kind.tiles)
			p := patchFor(a, b, kind.tiles)
			el.apply(p)
			require.Equal(t, showCell(b, kind.tiles), el, "tiles=%v\n%+v\n→ %+v", kind.tiles, a, b)
			if len(p.attrs) > 0 || p.setInner {
				changed++
			}
			assert.Equal(t, cellPatch{}, patchFor(b, b, kind.tiles), "the same cell")
		}
		assert.Greater(t, changed, 1000, "tiles=%v: most pairs differ", kind.tiles)
	}
}

// The patch's values are the escaped markup's: a tenant's name or secret is
// text in an attribute and escaped in the content.
func TestACellPatchCarriesTextNotMarkup(t *testing.T) {
	bad := model.CellView{Page: "3", Owner: `<img src=x onerror=alert(1)>`, Mark: `<b>`, Writer: `r1 <i>`, Text: `</span><script>alert(1)</script>`, Label: "x"}
	p := patchFor(model.CellView{Page: "3", Label: "x"}, bad, true)
	require.True(t, p.setInner)
	assert.NotContains(t, p.inner, "<script")
	assert.NotContains(t, p.inner, "<b>")
	assert.Contains(t, p.inner, html.EscapeString(bad.Text))
	owner := ""
	for _, a := range p.attrs {
		if a.name == "data-owner" {
			owner = a.value
		}
	}
	assert.Equal(t, bad.Owner, owner, "setAttribute takes the text as it is")
}

// A new generation writes every run again, each unlike the last
// generation's, and the first generation writes no mark.
func TestANewGenerationOfRunsDiffersFromTheLast(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	var rc gridRunCache
	first := rc.render(g)
	assert.Equal(t, gridRuns(g), first)
	assert.NotContains(t, strings.Join(first, ""), "data-gen")
	rc.renew()
	second := rc.render(g)
	require.Len(t, second, len(first))
	for i := range first {
		assert.NotEqual(t, first[i], second[i], "run %d", i)
		assert.Equal(t, first[i], strings.Replace(second[i], ` data-gen="1"`, "", 1), "run %d: only the mark differs", i)
	}
}
