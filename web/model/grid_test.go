package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestBuildGridDemo(t *testing.T) {
	s := NewSession()
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, 7, nil, MaxGridCells)
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
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	g, err := BuildGrid(s.Snapshot(), s.tenants, 0, s.cfg.PoolPages()-1, engine.Pages{{First: 0, Count: 8}}, MaxGridCells)
	require.NoError(t, err)
	assert.Len(t, g.Cells, MaxGridCells)
	assert.Equal(t, "0-1329", g.Cells[0].Page)
	assert.Equal(t, engine.PageLeaked, g.Cells[0].State, "the range holding pages 1–7 is leaked")
	assert.Equal(t, 7, g.Cells[0].Leaked)
	assert.True(t, g.Cells[0].Touched)
	assert.False(t, g.Cells[1].Touched)
	assert.Contains(t, g.Summary, "681,280")
	assert.Contains(t, g.Cells[0].Label, "7 LEAKED")

	zoomed, err := BuildGrid(s.Snapshot(), s.tenants, 0, 15, nil, MaxGridCells)
	require.NoError(t, err)
	assert.True(t, zoomed.Zoomed)
	assert.Len(t, zoomed.Cells, 16)

	_, err = BuildGrid(s.Snapshot(), s.tenants, 10, 5, nil, MaxGridCells)
	assert.Error(t, err)
}

func TestMetricRowsCoverEveryCounter(t *testing.T) {
	s := NewSession()
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
