package engine

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/jsonlite"
)

// FuzzImportRun feeds ImportRun any bytes, as a visitor's file picker does.
// The corpus (testdata/fuzz/FuzzImportRun) holds broken and hostile files;
// the presets' exports are added here so they follow the export format.
func FuzzImportRun(f *testing.F) {
	for _, p := range Presets() {
		e, err := Replay(p.Config, p.Ops)
		require.NoError(f, err)
		data, err := json.Marshal(e.Export(p.Ops))
		require.NoError(f, err)
		f.Add(data)
		// The same run as a file made with one pool: version 2, no dpool.
		old := e.Export(p.Ops)
		old.Version, old.Config.DecodePoolTokens = 2, 0
		data, err = json.Marshal(old)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReadsAsEncodingJSON(t, data)
		e, file, err := ImportRun(data) // must not panic or hang
		if err != nil {
			require.Nil(t, e, "a refused file yields no engine")
			return
		}
		require.NoError(t, checkJSONShape(data), "an accepted file is within the bounds")
		require.Equal(t, RunFileSchema, file.Schema)
		require.LessOrEqual(t, len(file.Ops), MaxRequests)
		require.LessOrEqual(t, ReplayWork(file.Config, file.Ops), int64(MaxReplayWork))
		checkImportedPools(t, data, file, e)
		// The run is the file's config and ops replayed, and exporting it
		// gives a file that imports to the same run.
		want, err := Replay(file.Config, file.Ops)
		require.NoError(t, err)
		require.Equal(t, want.Log().Copy(), e.Log().Copy())
		again, err := json.Marshal(e.Export(file.Ops))
		require.NoError(t, err)
		mine, err := jsonlite.Marshal(e.Export(file.Ops))
		require.NoError(t, err)
		require.Equal(t, string(again), string(mine), "jsonlite writes the export as encoding/json does")
		back, _, err := ImportRun(again)
		require.NoError(t, err, "the export of an imported run imports")
		require.Equal(t, e.Log().Copy(), back.Log().Copy())
		require.Equal(t, e.Metrics(), back.Metrics())
	})
}

// checkImportedPools: an imported run has both servers' pools as its
// config says — a file made with one pool gets decode's from
// DecodePoolForSinglePool — each conserving its pages, and prefill's
// never shows a leaked page.
func checkImportedPools(t *testing.T, data []byte, file RunFile, e *Engine) {
	t.Helper()
	var raw runFileInput
	require.NoError(t, json.Unmarshal(data, &raw))
	c := file.Config
	require.NoError(t, c.Validate())
	if raw.Version < 3 && raw.Config.DecodePoolTokens == 0 {
		assert.Equal(t, DecodePoolForSinglePool(c.ContextTokens, c.PoolTokens, c.PageTokens), c.DecodePoolTokens, "a one-pool file's decode pool")
	} else {
		assert.Equal(t, raw.Config.DecodePoolTokens, c.DecodePoolTokens, "a two-pool file keeps its decode pool")
	}
	m := e.Metrics()
	for s, pm := range map[Server]PoolMetrics{ServerPrefill: m.Prefill, ServerDecode: m.Decode} {
		require.Equal(t, c.PagesOf(s), pm.Total, s)
		require.Equal(t, pm.Total, pm.Free+pm.Allocated, "%s: pages are conserved", s)
	}
	prefill := e.SnapshotOf(ServerPrefill)
	cells, err := prefill.Cells(0, prefill.Pages()-1, 1)
	require.NoError(t, err)
	require.Zero(t, cells[0].Leaked, "prefill's pool never shows a leaked page")
}

// checkReadsAsEncodingJSON asserts that jsonlite, which reads the file in
// the wasm, reads what encoding/json reads, or refuses what it refuses.
func checkReadsAsEncodingJSON(t *testing.T, data []byte) {
	t.Helper()
	if checkJSONShape(data) != nil {
		return // refused before decoding
	}
	var want, got runFileInput
	werr := json.Unmarshal(data, &want)
	err := jsonlite.Unmarshal(data, &got)
	require.Equal(t, werr == nil, err == nil, "errors: encoding/json %v, jsonlite %v", werr, err)
	if err == nil {
		require.Equal(t, want, got)
	}
}
