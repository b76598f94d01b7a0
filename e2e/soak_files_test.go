package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// soakFiles writes the files the walk imports through #import: good runs,
// and files that must each get a message (not JSON, wrong schema, too big,
// deeply nested, a huge token count, a run that cannot be replayed). It
// returns their paths in a fixed order.
func soakFiles(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	demo := mustPreset(t, "demo")
	one := mustPreset(t, "abort-one-half")
	var long []engine.Op // too long for a permalink
	for i := range 250 {
		long = append(long, engine.SendOp(engine.Request{Tenant: string(rune('A' + i%3)), PromptTokens: 1 + i%7, Content: "x"}))
	}
	files := []struct{ name, body string }{
		{"demo.json", runFile(t, demo.Config, demo.Ops)},
		{"one-half.json", runFile(t, one.Config, one.Ops)},
		{"empty-run.json", runFile(t, demo.Config, nil)},
		{"long-run.json", runFile(t, demo.Config, long)},
		{"empty.json", ""},
		{"notes.json", "these are my notes, not JSON"},
		{"truncated.json", `{"schema": "kvleak-run", "version": 1, "config": {`},
		{"null.json", "null"},
		{"array.json", "[]"},
		{"string.json", `"kvleak-run"`},
		{"other.json", `{"schema": "something-else", "version": 1}`},
		{"future.json", `{"schema": "kvleak-run", "version": 2}`},
		{"nulls.json", `{"schema": "kvleak-run", "version": 1, "config": null, "ops": null}`},
		{"empty-ops.json", `{"schema": "kvleak-run", "version": 1, "config": {"context": 16, "pool": 8, "page": 1, "slot": 8, "mode": "vulnerable", "cancel": "both", "kvBytes": 1}, "ops": [{}, {"send": null}, {"settle": null}]}`},
		{"bad-config.json", `{"schema": "kvleak-run", "version": 1, "config": {"context": 16, "pool": 0, "page": 1, "slot": 8, "mode": "vulnerable", "cancel": "both", "kvBytes": 1}, "ops": []}`},
		{"bad-types.json", `{"schema": "kvleak-run", "version": "1", "config": [], "ops": {}}`},
		{"bom.json", "\ufeff" + runFile(t, demo.Config, demo.Ops)},
		{"nested.json", strings.Repeat("[", engine.MaxRunFileBytes-1)},
		{"nested-objects.json", `{"schema": "kvleak-run", "version": 1, "x": ` + strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000) + "}"},
		{"many-tokens.json", `{"schema": "kvleak-run", "version": 1, "events": [` + strings.Repeat("0,", engine.MaxRunFileBytes/2-64) + "0]}"},
	}
	var paths []string
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		require.NoError(t, os.WriteFile(p, []byte(f.body), 0o644))
		paths = append(paths, p)
	}
	// 50 MB, sparse: the page must refuse it by its size, unread.
	huge := filepath.Join(dir, "huge.json")
	require.NoError(t, os.WriteFile(huge, []byte("{"), 0o644))
	require.NoError(t, os.Truncate(huge, 50<<20))
	return append(paths, huge)
}

// runFile is an export of the run cfg and ops replay to.
func runFile(t *testing.T, cfg engine.Config, ops []engine.Op) string {
	t.Helper()
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	data, err := json.Marshal(e.Export(ops))
	require.NoError(t, err)
	return string(data)
}
