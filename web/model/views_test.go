package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The views read from the engine's counters keep their identity while the
// counters stay the same (go-app then passes over the panels at once) and
// follow them when they change.
func TestCounterViewsAreKeptWhileTheCountersStay(t *testing.T) {
	s := NewSession()
	first, again := s.Metrics(), s.Metrics()
	require.NotEmpty(t, first.Rows)
	assert.Same(t, &first.Rows[0], &again.Rows[0], "the same rows while nothing ran")
	prom := s.Prometheus()
	require.NoError(t, s.SetText(PromptTokens, "3"))
	require.NoError(t, s.Send())
	after := s.Metrics()
	assert.NotSame(t, &first.Rows[0], &after.Rows[0], "a Send counted: new rows")
	assert.NotEqual(t, first.Rows, after.Rows)
	assert.NotEqual(t, prom, s.Prometheus(), "and a new text")
	s.Reset()
	assert.Equal(t, "0", metricValue(t, s.Metrics(), "responses"), "a new run, counted afresh")
}

func metricValue(t *testing.T, v MetricsView, key string) string {
	t.Helper()
	for _, r := range v.Rows {
		if r.Key == key {
			return r.Value
		}
	}
	t.Fatalf("no metric %q", key)
	return ""
}

// The comparison's totals count in words that agree with their numbers.
func TestCompareTotalsAgreeWithTheirCounts(t *testing.T) {
	s := NewSession()
	c, err := s.Compare()
	require.NoError(t, err)
	assert.Equal(t, "Over the run: 7 leaked pages in 1 response.", c.Sides[0].Totals)
	assert.Equal(t, "Over the run: 0 leaked pages in 0 responses.", c.Sides[1].Totals)
}
