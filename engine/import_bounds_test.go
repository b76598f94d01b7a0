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
	cfg := Config{ContextTokens: MaxContextTokens, PoolTokens: MaxPoolPages / 2, DecodePoolTokens: MaxPoolPages / 2, PageTokens: 1,
		Mode: Vulnerable, Cancel: CancelBoth, KVBytesPerToken: 1}
	var ops []Op
	for range 3 {
		ops = append(ops, SendOp(Request{Tenant: "A", PromptTokens: 2_097_000}))
	}
	// Each send is read in full by both servers: 2,097,000 pages on each; it
	// counts one server's, and one.
	require.Equal(t, int64(6_291_003), ReplayWork(cfg, ops), "three sends are within the bound")
	ops = append(ops, ops[0])
	data, err := json.Marshal(RunFile{Schema: RunFileSchema, Version: RunFileVersion, Config: cfg, Ops: ops})
	require.NoError(t, err)
	require.Less(t, len(data), 1_200)
	_, _, err = ImportRun(data)
	require.EqualError(t, err, "the file's requests would touch 8,388,004 pages; a file may ask for at most 8,000,000")
}

// ReplayWork counts, for each send, the larger of what the two servers
// allocate: decode the prompt as its intake sees it, prefill its forward
// pass's — one page for a placeholder —, nothing past the API.
func TestReplayWorkFollowsEachServer(t *testing.T) {
	glm, _ := PresetBySlug("glm-launch")
	bigPrefill := glm.Config
	bigPrefill.PoolTokens, bigPrefill.DecodePoolTokens = GLMFixedPoolTokens, 500_000 // decode reads 499,993
	for _, tc := range []struct {
		cfg    Config
		tokens int
		want   int64
	}{
		{glm.Config, 4_096, 4_096 + 1},            // both admit
		{glm.Config, 900_000, 900_000 + 1},        // the leak: decode reserves it all, prefill one page
		{glm.Config, GLMContextTokens - 1, 1 + 1}, // both reject: two placeholders
		{glm.Config, GLMContextTokens, 1},         // the API refuses
		{bigPrefill, 600_000, 600_000 + 1},        // prefill reads it all, decode one page
		{glm.Config, 0, 1 + 1},                    // not a prompt: counted as one token
		{glm.Config, -5, 1 + 1},
		{glm.Config, 1 << 40, 1},
	} {
		assert.Equal(t, tc.want, ReplayWork(tc.cfg, []Op{SendOp(Request{Tenant: "A", PromptTokens: tc.tokens})}), "%d tokens", tc.tokens)
	}
	assert.Zero(t, ReplayWork(glm.Config, []Op{SettleOp(1, OutcomeDrained)}), "a settle allocates nothing")
	var all int64
	for _, op := range glm.Ops {
		all += ReplayWork(glm.Config, []Op{op})
	}
	assert.Equal(t, all, ReplayWork(glm.Config, glm.Ops), "the sum of its sends")
}

// TestImportBoundsLeaveRunFiles: every preset's export — the launch tests
// on GLM-5.3's pools included — and a long run near the file size limit,
// still imports.
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
	for i := range 1_100 { // 12 events each on two servers
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
