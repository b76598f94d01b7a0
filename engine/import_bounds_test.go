package engine

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImportBoundsMessages: a file too big, too deep or with too many
// tokens gets its own message, before any decoding.
func TestImportBoundsMessages(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for name, c := range map[string]struct{ data, msg string }{
		"50 MB":          {strings.Repeat(" ", 50<<20), "the file is 52,428,800 bytes; at most 4,194,304 are read"},
		"one byte over":  {strings.Repeat(" ", MaxRunFileBytes+1), "the file is 4,194,305 bytes; at most 4,194,304 are read"},
		"arrays":         {strings.Repeat("[", MaxRunFileBytes), "not a run file: it nests more than 16 levels deep"},
		"just too deep":  {deep(MaxRunFileDepth + 1), "not a run file: it nests more than 16 levels deep"},
		"objects":        {strings.Repeat(`{"a":`, 100_000), "not a run file: it nests more than 16 levels deep"},
		"deep in config": {`{"schema":"kvleak-run","version":1,"config":` + deep(20) + `}`, "nests more than 16 levels deep"},
		"many tokens":    {"[" + strings.Repeat("0,", MaxRunFileTokens) + "0]", "not a run file: it has more than 1,048,576 JSON tokens"},
		"many strings":   {`{"events":[` + strings.Repeat(`"",`, MaxRunFileTokens/2) + `""]}`, "it has more than 1,048,576 JSON tokens"},
		// At the bounds the decoder has its say.
		"deep enough":         {`{"schema":"x","version":1,"pad":` + deep(MaxRunFileDepth-1) + `}`, "not a run file of this playground"},
		"brackets in strings": {`{"schema":"` + strings.Repeat(`[{\"`, 1000) + `","version":1}`, "not a run file of this playground"},
		"escaped backslash":   {`{"schema":"\\","version":1,"x":` + deep(3) + `}`, "not a run file of this playground"},
	} {
		_, _, err := ImportRun([]byte(c.data))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), c.msg, name)
	}
}

// TestImportBoundsWork: a small file asking for minutes of replay is
// refused before the replay.
func TestImportBoundsWork(t *testing.T) {
	cfg := Config{ContextTokens: MaxContextTokens, PoolTokens: MaxPoolTokens, PageTokens: 1, SlotPages: MaxSlotPages,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	var ops []Op
	for range 2 {
		ops = append(ops, SendOp(Request{Tenant: "A", PromptTokens: 3_000_000}))
	}
	// Each send writes 3,000,000 pages and reserves 1,024 + 1.
	require.Equal(t, int64(6_002_050), ReplayWork(cfg, ops), "two sends are within the bound")
	ops = append(ops, ops[0])
	data, err := json.Marshal(RunFile{Schema: RunFileSchema, Version: RunFileVersion, Config: cfg, Ops: ops})
	require.NoError(t, err)
	require.Less(t, len(data), 1_000)
	_, _, err = ImportRun(data)
	require.EqualError(t, err, "the file's requests would touch 9,003,075 pages; a file may ask for at most 8,000,000")
}

// TestImportBoundsLeaveRunFiles: every preset's export, and a long run near
// the file size limit, still imports.
func TestImportBoundsLeaveRunFiles(t *testing.T) {
	for _, p := range Presets() {
		e, err := Replay(p.Config, p.Ops)
		require.NoError(t, err)
		data, err := json.MarshalIndent(e.Export(p.Ops), "", "\t")
		require.NoError(t, err)
		require.NoError(t, checkJSONShape(data), p.Slug)
		_, _, err = ImportRun(data)
		require.NoError(t, err, p.Slug)
	}
	p, _ := PresetBySlug("demo")
	var ops []Op
	for i := range 1_500 {
		ops = append(ops, SendOp(Request{Tenant: "AB"[i%2 : i%2+1], PromptTokens: 1 + i%20, Content: "x"}))
	}
	e, err := Replay(p.Config, ops)
	require.NoError(t, err)
	data, err := json.Marshal(e.Export(ops))
	require.NoError(t, err)
	require.Greater(t, len(data), MaxRunFileBytes/2, "a file of about the size limit")
	require.LessOrEqual(t, len(data), MaxRunFileBytes)
	_, _, err = ImportRun(data)
	require.NoError(t, err)
}
