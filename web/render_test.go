package web

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

func TestGridMove(t *testing.T) {
	for _, c := range []struct {
		key            string
		i, n, cols, to int
	}{
		{"ArrowRight", 0, 8, 4, 1}, {"ArrowLeft", 0, 8, 4, 0}, {"ArrowDown", 1, 8, 4, 5},
		{"ArrowDown", 5, 8, 4, 5}, {"ArrowUp", 5, 8, 4, 1}, {"Home", 5, 8, 4, 0},
		{"End", 2, 8, 4, 7}, {"a", 2, 8, 4, 2}, {"ArrowDown", 0, 8, 0, 1},
	} {
		assert.Equal(t, c.to, gridMove(c.key, c.i, c.n, c.cols), "%+v", c)
	}
}

func TestGridHTMLEscapesAndCarriesEveryHook(t *testing.T) {
	g := presetGrid(t, "glm-remediated")
	runs := gridRuns(g)
	require.Len(t, runs, model.MaxGridCells/gridRun)
	out := strings.Join(runs, "")
	assert.Equal(t, model.MaxGridCells, strings.Count(out, `data-owner="`), "every cell carries data-owner, empty when none")
	assert.Contains(t, out, `data-owner=""`)
	assert.Equal(t, model.MaxGridCells, strings.Count(out, `tabindex="-1"`), "no tab stop in the markup: gridView sets it on the element")

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

func TestLogBlockHTMLEscapesAndMarksTheSelectedStep(t *testing.T) {
	s := model.NewSession()
	s.Reset()
	typeRequest(t, s, "B", "3", "y")
	require.NoError(t, s.SetText(model.TenantName, `<i>x</i>`))
	require.NoError(t, s.Rename())
	require.NoError(t, s.Send())
	evs := s.Engine().Log().Copy()
	out := logBlockHTML(evs, 2)
	assert.True(t, strings.HasPrefix(out, `<ol class="log-block" start="1" aria-label="Events 1–`+strconv.Itoa(len(evs))+`">`), out)
	assert.Equal(t, len(evs), strings.Count(out, `<li `))
	assert.NotContains(t, out, "<i>")
	assert.Contains(t, out, "&lt;i&gt;x&lt;/i&gt;")
	assert.Contains(t, out, `data-step="2" aria-pressed="true"`)
	assert.Equal(t, 1, strings.Count(out, `aria-pressed="true"`))
	assert.Equal(t, 1, strings.Count(out, ` selected"`))
	assert.Contains(t, out, `data-stage="decode.prealloc"`)

	later := logBlockHTML(evs[3:5], 0)
	assert.True(t, strings.HasPrefix(later, `<ol class="log-block" start="4" aria-label="Events 4–5">`), later)
	assert.NotContains(t, later, `aria-pressed="true"`)
	assert.Equal(t, `<ol class="log-block"></ol>`, logBlockHTML(nil, 0))
}

// A changed cell changes only its run: go-app then replaces that one raw
// element and leaves the others' DOM alone.
func TestGridRunsChangeOnlyWhereACellDid(t *testing.T) {
	g := presetGrid(t, "glm-launch")
	before := gridRuns(g)
	changed := g
	changed.Cells = slices.Clone(g.Cells)
	changed.Cells[gridRun+5].Label += " (changed)"
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

// The run cache renders what gridRuns renders, across steps, zooms and a
// switch to tiles, and hands back the very strings of the runs that did
// not change.
func TestGridRunCacheRendersWhatGridRunsRenders(t *testing.T) {
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	var rc gridRunCache
	r := rand.New(rand.NewPCG(4, 4))
	reused := 0
	for i := range 30 {
		require.NoError(t, s.SelectStep(r.IntN(s.Steps()+1)))
		if i == 20 {
			require.NoError(t, s.Zoom(0, 40)) // tiles
		}
		g, err := s.Grid(model.MaxGridCells)
		require.NoError(t, err)
		before := slices.Clone(rc.runs)
		got := rc.render(g)
		require.Equal(t, gridRuns(g), got, "render %d", i)
		for j := range min(len(before), len(got)) {
			if before[j] == got[j] && sameBytes(before[j], got[j]) {
				reused++
			}
		}
	}
	assert.Greater(t, reused, 100, "unchanged runs are reused, not built again")
}
