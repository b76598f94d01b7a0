package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareTheDemo(t *testing.T) {
	p, _ := PresetBySlug("demo")
	c, err := Compare(p.Config, p.Ops)
	require.NoError(t, err)
	assert.Equal(t, "vulnerable: 200 + 7 leaked pages; fixed: 400, nothing allocated", c.Difference)
	assert.Equal(t, 7, c.Vulnerable.Metrics.LeakedPages)
	assert.Equal(t, 0, c.Fixed.Metrics.LeakedPages)
}

func TestCompareSummaries(t *testing.T) {
	for slug, want := range map[string]string{
		"scrub":          "vulnerable: 200 for a rejected request, 7 zeroed pages; fixed: 400, nothing allocated",
		"glm-remediated": "vulnerable: 200, no leak; fixed: 200, no leak",
		"abort-one-half": "vulnerable: 200, no leak; fixed: 200, no leak",
	} {
		p, _ := PresetBySlug(slug)
		c, err := Compare(p.Config, p.Ops)
		require.NoError(t, err)
		assert.Equal(t, want, c.Difference, slug)
	}
	c, err := Compare(DemoConfig(), nil)
	require.NoError(t, err)
	assert.Equal(t, "vulnerable: no request yet; fixed: no request yet", c.Difference)
	_, err = Compare(Config{}, nil)
	assert.Error(t, err)
}

func TestExportImportRoundTrip(t *testing.T) {
	p, _ := PresetBySlug("abort-one-half")
	ops := append(p.Ops, SettleOp(1, OutcomeDrained))
	e, err := Replay(p.Config, ops)
	require.NoError(t, err)
	data, err := jsonMarshal(e.Export(ops))
	require.NoError(t, err)
	back, f, err := ImportRun(data)
	require.NoError(t, err)
	assert.Equal(t, e.Log().Copy(), back.Log().Copy())
	assert.Equal(t, e.Metrics(), back.Metrics())
	assert.Equal(t, ops, f.Ops)
}

// A version 1 file has no allocator: it ran LIFO, and is read so.
func TestImportVersion1(t *testing.T) {
	old := `{"schema":"kvleak-run","version":1,"config":{"context":32,"pool":16,"page":1,"slot":8,"mode":"vulnerable","cancel":"both","kvBytes":1},
		"ops":[{"send":{"tenant":"A","tokens":8,"content":"x"}},{"send":{"tenant":"B","tokens":8}},{"send":{"tenant":"C","tokens":8}}]}`
	e, f, err := ImportRun([]byte(old))
	require.NoError(t, err)
	assert.Equal(t, 1, f.Version)
	assert.Equal(t, LIFO, f.Config.Allocator)
	assert.Equal(t, pg(0, 8), e.Responses()[1].ReadPages, "most recently freed first")

	now := strings.Replace(old, `"version":1`, `"version":2`, 1)
	e, f, err = ImportRun([]byte(now))
	require.NoError(t, err)
	assert.Empty(t, f.Config.Allocator, "a version 2 file without one means Sorted")
	assert.Equal(t, pg(8, 8), e.Responses()[1].ReadPages, "release_pages waits; free_pages goes on")
}

func TestImportRejectsBadFiles(t *testing.T) {
	big := make([]byte, MaxRunFileBytes+1)
	for name, c := range map[string]struct {
		data, msg string
	}{
		"empty":      {"", "not a run file"},
		"not json":   {"hello", "not a run file"},
		"wrong kind": {`{"schema":"other","version":1}`, "not a run file of this playground"},
		"version":    {`{"schema":"kvleak-run","version":99}`, "version 99"},
		"bad config": {`{"schema":"kvleak-run","version":1,"config":{"context":0}}`, "context length 0"},
		"bad op":     {`{"schema":"kvleak-run","version":1,"config":{"context":16,"pool":8,"page":1,"slot":8,"mode":"fixed","cancel":"both","kvBytes":1},"ops":[{"send":{"tenant":"","tokens":1}}]}`, "tenant name is empty"},
		"too big":    {string(big), "at most"},
		"text after": {`{"schema":"kvleak-run","version":2} and more`, "not a run file: invalid character 'a' at byte 37, after the top-level value"},
		"wrong type": {`{"schema":"kvleak-run","version":"2"}`, `not a run file: at byte 34 (version): a string cannot be read into a Go int`},
	} {
		_, _, err := ImportRun([]byte(c.data))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
}
