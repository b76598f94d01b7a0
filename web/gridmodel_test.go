package web

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestBuildGridDemo(t *testing.T) {
	s := newSession()
	g, err := buildGrid(s.snapshot(), s.tenants, 0, 7, nil)
	require.NoError(t, err)
	require.Len(t, g.Cells, 8)
	assert.Equal(t, 1, g.PerCell)
	leaked := 0
	for _, c := range g.Cells[1:] {
		assert.Equal(t, engine.PageLeaked, c.State)
		assert.Equal(t, "A", c.Owner)
		assert.Equal(t, "A!", c.Mark, "a leak is marked in text, not only colour")
		assert.Contains(t, c.Label, "LEAKED")
		assert.Contains(t, c.Label, "written by r1 (tenant A)")
		assert.Contains(t, c.Label, "read by r2 (tenant B)")
		leaked++
	}
	assert.Equal(t, 7, leaked)
	assert.Equal(t, "0", g.Cells[0].Page)
	assert.Equal(t, engine.PageStale, g.Cells[0].State)
	assert.Equal(t, 1, g.Cells[0].Tenant, "tenant B's colour")
}

func TestBuildGridAggregatesRealScale(t *testing.T) {
	s := newSession()
	require.NoError(t, s.loadPreset("glm-launch"))
	g, err := buildGrid(s.snapshot(), s.tenants, 0, s.cfg.PoolPages()-1, engine.Pages{{First: 0, Count: 8}})
	require.NoError(t, err)
	assert.Len(t, g.Cells, maxGridCells)
	assert.Equal(t, "0-1329", g.Cells[0].Page)
	assert.Equal(t, engine.PageLeaked, g.Cells[0].State, "the range holding pages 1–7 is leaked")
	assert.Equal(t, 7, g.Cells[0].Leaked)
	assert.True(t, g.Cells[0].Touched)
	assert.False(t, g.Cells[1].Touched)
	assert.Contains(t, g.Summary, "681,280")
	assert.Contains(t, g.Cells[0].Label, "7 LEAKED")

	zoomed, err := buildGrid(s.snapshot(), s.tenants, 0, 15, nil)
	require.NoError(t, err)
	assert.True(t, zoomed.Zoomed)
	assert.Len(t, zoomed.Cells, 16)

	_, err = buildGrid(s.snapshot(), s.tenants, 10, 5, nil)
	assert.Error(t, err)
}

func TestMetricRowsCoverEveryCounter(t *testing.T) {
	s := newSession()
	rows := metricRows(s.eng.Metrics())
	byKey := map[string]string{}
	for _, r := range rows {
		byKey[r.Key] = r.Value
	}
	assert.Equal(t, "7", byKey["leaked-pages"])
	assert.Equal(t, "1", byKey["leaked-responses"])
	assert.Equal(t, "8", byKey["pages-stale"])
	assert.Len(t, rows, 17)
}

func TestSegmentText(t *testing.T) {
	assert.Equal(t, "x", segmentText("x", 1))
	assert.Equal(t, "x  ×1,000", segmentText("x", 1000))
}

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
	s := newSession()
	require.NoError(t, s.loadPreset("glm-remediated"))
	g, err := buildGrid(s.snapshot(), s.tenants, 0, s.cfg.PoolPages()-1, nil)
	require.NoError(t, err)
	out := gridHTML(g, 3)
	assert.Equal(t, maxGridCells, strings.Count(out, `data-owner="`), "every cell carries data-owner, empty when none")
	assert.Contains(t, out, `data-owner=""`)
	assert.Equal(t, 1, strings.Count(out, `tabindex="0"`))
	assert.Contains(t, out, `tabindex="0" data-idx="3"`)

	s = newSession()
	s.tenant = "B"
	require.NoError(t, s.renameTenant(`<img src=x onerror=alert(1)>"`))
	s.text[fieldTokens], s.text[fieldSecret] = "3", `</button><script>alert(1)</script>`
	require.NoError(t, s.send())
	g, err = buildGrid(s.snapshot(), s.tenants, 0, 7, nil)
	require.NoError(t, err)
	out = gridHTML(g, 0)
	assert.NotContains(t, out, "<img")
	assert.NotContains(t, out, "<script")
	assert.Contains(t, out, "&lt;img src=x onerror=alert(1)&gt;&#34;")
	assert.Contains(t, out, "&lt;/button&gt;&lt;script&gt;")
}

func TestLogBlockHTMLEscapesAndMarksTheSelectedStep(t *testing.T) {
	s := newSession()
	s.reset()
	s.tenant = "B"
	require.NoError(t, s.renameTenant(`<i>x</i>`))
	s.text[fieldTokens], s.text[fieldSecret] = "3", "y"
	require.NoError(t, s.send())
	evs := s.eng.Events()
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
