package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/deploycheck"
	"kvleak/engine"
	"kvleak/replay"
)

// A log at GLM-5.3's sizes: A's secret, D's long job, B's prompt inside
// the window prefill rejects and decode admits.
const glmLog = "t,tenant,prompt_tokens,output_tokens\n0,A,4096,4\n1,D,677177,4\n100,B,900000,4\n"

// -prefill and -decode replay at the settings kvleak check reads from the
// two servers (deploycheck.Verdict.Settings), and say so.
func TestReplayAtTheServersSettings(t *testing.T) {
	prefill, decode := fixtures+"glm-launch/prefill.json", fixtures+"glm-launch/decode.json"
	code, out, errOut := replayCmd(t, glmLog, "-prefill", prefill, "-decode", decode, "-json", "-")
	require.Empty(t, errOut)
	assert.Equal(t, 1, code)

	p, _ := os.ReadFile(prefill)
	d, _ := os.ReadFile(decode)
	v, err := deploycheck.CheckText(string(p), string(d))
	require.NoError(t, err)
	st, err := v.Settings()
	require.NoError(t, err)
	want, err := replay.Run(strings.NewReader(glmLog), replay.Options{Config: st.Config, Timing: replay.DefaultTiming})
	require.NoError(t, err)
	assert.Contains(t, out, `"leaked": `+strconv.Itoa(want.Vulnerable.Leaked))
	assert.Contains(t, out, `"dpool": 1048576`)

	_, out, _ = replayCmd(t, glmLog, "-prefill", prefill, "-decode", decode, "-")
	assert.Contains(t, out, "Settings: context 1,048,576, prefill pool 681,280, decode pool 1,048,576, page 1 tokens")
	assert.Contains(t, out, "- The settings are the two servers' (-prefill "+prefill+", -decode "+decode+"), as kvleak check reads them: EXPOSED: prompts of 681,274–1,048,569 tokens")

	// The launch commands give the same.
	_, out2, errOut := replayCmd(t, glmLog, "-prefill", fixtures+"launch-command/prefill.sh", "-decode", fixtures+"launch-command/decode.sh", "-")
	require.Empty(t, errOut)
	assert.Equal(t, settingsLine(out), settingsLine(out2))
}

func settingsLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Settings:") {
			return l
		}
	}
	return ""
}

// The numbers one by one: the demo's five numbers over glm-launch's other
// settings replay as the demo preset does.
func TestReplayAtTheNumbersGiven(t *testing.T) {
	demo := engine.DemoConfig()
	n := func(v int) string { return strconv.Itoa(v) }
	numbers := []string{"-context", n(demo.ContextTokens), "-prefill-pool", n(demo.PoolTokens), "-decode-pool", n(demo.DecodePoolTokens), "-page", n(demo.PageTokens)}
	_, want, _ := replayCmd(t, demoLog, "-preset", "demo", "-")
	code, got, errOut := replayCmd(t, demoLog, append(numbers, "-reserve", n(demo.ReservedDecodeTokens), "-")...)
	require.Empty(t, errOut)
	assert.Equal(t, 1, code)
	assert.Equal(t, want, got)
	assert.Contains(t, got, "A → B: 1, 7, 119")
	assert.Contains(t, got, "Settings: context 256, prefill pool 128, decode pool 160, page 16 tokens, decode's reserve 32 tokens, allocator sorted")

	// Without -reserve, SGLang's 512: 120 + 512 and 125 + 512 never fit a
	// decode pool of 160, and nothing is replayed.
	code, got, errOut = replayCmd(t, demoLog, append(numbers, "-")...)
	require.Empty(t, errOut)
	assert.Equal(t, 0, code)
	assert.Contains(t, got, "decode's reserve 512 tokens")
	assert.Contains(t, got, "2 requests never fit decode's prealloc budget, even on an idle pool of 160 tokens with 512 reserved for decoding (log lines 2, 3)")

	// 0 is a reserve: decode keeps nothing in hand.
	_, got, errOut = replayCmd(t, demoLog, append(numbers, "-reserve", "0", "-")...)
	require.Empty(t, errOut)
	assert.Contains(t, got, "decode's reserve 0 tokens")
	assert.Contains(t, got, "A → B: 1, 7, 119")

	_, got, _ = replayCmd(t, demoLog, "-context", "1Mi", "-")
	assert.Contains(t, got, "Settings: context 1,048,576, prefill pool 681,280")
}

// Two sources for one setting are refused, naming both.
func TestReplaySettingsConflict(t *testing.T) {
	p, d := fixtures+"glm-launch/prefill.json", fixtures+"glm-launch/decode.json"
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-prefill", p, "-decode", d, "-preset", "demo"}, "kvleak: -preset and -prefill both give the settings: give one\n"},
		{[]string{"-link", "?v=3&preset=demo", "-prefill", p, "-decode", d}, "kvleak: -link and -prefill both give the settings: give one\n"},
		{[]string{"-prefill", p, "-decode", d, "-context", "4096"}, "kvleak: -context and -prefill both give the context length: give one\n"},
		{[]string{"-link", "?v=3&preset=demo", "-decode-pool", "200"}, "kvleak: -decode-pool and -link both give decode's pool: give one\n"},
		{[]string{"-preset", "demo", "-page", "1"}, "kvleak: -page and -preset both give the page size: give one\n"},
		{[]string{"-preset", "demo", "-reserve", "32"}, "kvleak: -reserve and -preset both give decode's reserve: give one\n"},
		{[]string{"-link", "?v=4&preset=demo", "-reserve", "0"}, "kvleak: -reserve and -link both give decode's reserve: give one\n"},
		{[]string{"-prefill", p, "-decode", d, "-reserve", "512"}, "kvleak: -reserve and -prefill both give decode's reserve: give one\n"},
		{[]string{"-reserve", "-1"}, `kvleak: -reserve "-1": must be a positive number`},
		{[]string{"-reserve", "lots"}, `kvleak: -reserve "lots": not a number`},
		{[]string{"-reserve", "5Mi"}, "kvleak: -reserve: decode's reserved tokens 5,242,880: must be between 0 and"},
		{[]string{"-prefill", p}, "kvleak: -prefill and -decode go together: give both servers' files\n"},
		{[]string{"-page", "many"}, `kvleak: -page "many": not a number`},
		{[]string{"-prefill-pool", "0"}, `kvleak: -prefill-pool "0": must be at least 1`},
		{[]string{"-page", "2Mi"}, "kvleak: -page: page size 2,097,152: must be between 1 and"},
		{[]string{"-prefill", p, "-decode", p}, "kvleak: -decode " + p + ": "},
		{[]string{"-prefill", "nope.json", "-decode", d}, "kvleak: -prefill: open nope.json"},
	} {
		code, out, errOut := replayCmd(t, demoLog, append(c.args, "-")...)
		assert.Equal(t, 2, code, "%q", c.args)
		assert.Empty(t, out)
		assert.True(t, strings.HasPrefix(errOut, c.msg), "%q: %s", c.args, errOut)
	}
}

// -pairs and -tenants write the files replay.Run writes for the same log
// and settings; a replay that fails leaves none behind.
func TestReplayWritesTheFiles(t *testing.T) {
	dir := t.TempDir()
	pairs, tenants := filepath.Join(dir, "pairs.csv"), filepath.Join(dir, "tenants.csv")
	code, _, errOut := replayCmd(t, glmLog+"101,C,900000,4\n", "-pairs", pairs, "-tenants", tenants, "-")
	require.Empty(t, errOut)
	require.Equal(t, 1, code)

	var wantPairs, wantTenants bytes.Buffer
	glm, _ := engine.PresetBySlug("glm-launch")
	_, err := replay.Run(strings.NewReader(glmLog+"101,C,900000,4\n"), replay.Options{Config: glm.Config, Timing: replay.DefaultTiming,
		Files: replay.Files{Pairs: &wantPairs, Tenants: &wantTenants}})
	require.NoError(t, err)
	got, _ := os.ReadFile(pairs)
	assert.Equal(t, wantPairs.String(), string(got))
	assert.Contains(t, string(got), "\"A\",\"B\",4,100,")
	got, _ = os.ReadFile(tenants)
	assert.Equal(t, wantTenants.String(), string(got))
	assert.True(t, strings.HasPrefix(string(got), replay.TenantsHeader+"\r\n\"A\","), string(got))

	require.NoError(t, os.Remove(pairs))
	require.NoError(t, os.Remove(tenants))
	code, _, errOut = replayCmd(t, "not a log\n", "-pairs", pairs, "-tenants", tenants, "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "not a log we read")
	assert.NoFileExists(t, pairs)
	assert.NoFileExists(t, tenants)

	code, _, errOut = replayCmd(t, demoLog, "-pairs", pairs, "-tenants", filepath.Join(dir, ".", "pairs.csv"), "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "-pairs and -tenants name one file")
	code, _, errOut = replayCmd(t, demoLog, "-pairs", filepath.Join(dir, "no", "such", "dir.csv"), "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "kvleak: -pairs: open ")
}

// -instances spreads the log: the demo's B, sent after a request on the
// other instance, lands beside A's KV on instance 1, and says so.
func TestReplayInstances(t *testing.T) {
	log := "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n0.5,X,10,1\n1,B,125,4\n"
	code, out, errOut := replayCmd(t, log, "-preset", "demo", "-instances", "2", "-")
	require.Empty(t, errOut)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "A → B: 1, 7, 119 (on instance 1)")
	assert.Contains(t, out, "; 2 prefill/decode instances.")
	assert.Contains(t, out, "First leaked response: Line 4 at 1s, tenant B, a 125-token prompt, carrying 119 tokens of tenant A's KV, on instance 1.")
	assert.Contains(t, out, "- The log is spread over 2 prefill/decode instances")

	code, _, errOut = replayCmd(t, log, "-instances", "0", "-")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "kvleak: -instances 0: must be between 1 and 1,000")
}
