package deploycheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

// pair reads a fixture folder's two servers.
func pair(t testing.TB, dir string) (prefill, decode string) {
	t.Helper()
	read := func(role string) string {
		matches, err := filepath.Glob(filepath.Join("testdata", dir, role+".*"))
		require.NoError(t, err)
		require.Len(t, matches, 1, "%s/%s", dir, role)
		b, err := os.ReadFile(matches[0])
		require.NoError(t, err)
		return string(b)
	}
	return read("prefill"), read("decode")
}

// The fixtures of issue 31, each with the headline a person acts on and
// the numbers the engine's limit code gives.
func TestFixtures(t *testing.T) {
	const glmWindow = "681,274–1,048,569 tokens"
	for _, c := range []struct {
		dir          string
		status       Status
		headline     string
		prefillMaxIn int
		decodeMaxIn  int
		apiContext   int
		window       engine.Window
		mode         engine.Mode
		notesContain []string
	}{
		{"glm-launch", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable, nil},
		{"glm-remediated", NotExposed,
			"NOT EXPOSED: the window is closed (prefill admits everything decode admits)",
			1_048_570, 1_048_570, 1_048_576, engine.Window{First: 1_048_570, Last: 1_048_569}, engine.Vulnerable,
			[]string{"0.5.20 (mooncake) predates the fix in 0.5.21: a prefill pool that shrinks"}},
		{"symmetric", NotExposed,
			"NOT EXPOSED: the window is closed (prefill admits everything decode admits)",
			681_274, 681_274, 1_048_576, engine.Window{First: 681_274, Last: 681_273}, engine.Vulnerable, nil},
		{"v0.5.21-mooncake", Patched,
			"PATCHED: the window is open but 0.5.21 retires the rejection at the door",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Fixed, nil},
		{"v0.5.21-mori", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; 0.5.21 (mori) predates the fix in 0.5.22",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable, nil},
		{"launch-command", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable,
			[]string{"prefill's pool is --max-total-tokens 681,280, an upper bound", "decode's release 0.5.20 is read from the image tag lmsysorg/sglang:v0.5.20-cu129"}},
		{"minimal", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable, nil},
		// issue 42: /server_info of a development build whose prefill has
		// context_length null, a hybrid sliding-window pair whose reported
		// limits differ from the rule, Kubernetes lists.
		{"dev-build", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; 0.0.0.dev1+g87549f8f0 (mooncake) is a development build that names no release, commit 87549f8f0: whether it carries the fix in 0.5.21 is unknown",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable,
			[]string{"prefill does not say its context length (its context_length is null): the other server's, 1,048,576, is used"}},
		{"hybrid-swa", Exposed,
			"EXPOSED: prompts of 99,994–131,065 tokens pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
			99_994, 131_066, 131_072, engine.Window{First: 99_994, Last: 131_065}, engine.Vulnerable,
			[]string{"prefill reports max_req_input_len 99,994 where the rule on max_total_num_tokens 20,000 gives 19,994", "decode reports max_req_input_len 131,066 where the rule on max_total_num_tokens 40,000 gives 39,994"}},
		{"k8s-args", Exposed,
			"EXPOSED: prompts of " + glmWindow + " pass decode's door and take prefill's placeholder path; prefill: 0.5.20 (mooncake) predates the fix in 0.5.21; decode: the launch command does not say the SGLang release (mooncake has the fix from 0.5.21)",
			681_274, 1_048_570, 1_048_576, engine.Window{First: 681_274, Last: 1_048_569}, engine.Vulnerable,
			[]string{"prefill's release 0.5.20 is read from the image tag lmsysorg/sglang:v0.5.20-cu129", "decode's list names no launcher: its flags are read as sglang.launch_server's (the container's entrypoint)"}},
		// The API in front refuses at the smaller context: decode's here.
		{"contexts-differ", Exposed,
			"EXPOSED: prompts of 681,274–786,425 tokens pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
			681_274, 786_426, 786_432, engine.Window{First: 681_274, Last: 786_425}, engine.Vulnerable,
			[]string{"context lengths differ: prefill 1,048,576, decode 786,432; the API refuses at the smaller"}},
	} {
		t.Run(c.dir, func(t *testing.T) {
			p, d := pair(t, c.dir)
			v, err := CheckText(p, d)
			require.NoError(t, err)
			assert.Equal(t, c.status, v.Status)
			assert.Equal(t, c.headline, v.Headline)
			assert.Equal(t, c.headline, v.Lines()[0])
			assert.True(t, strings.HasPrefix(v.Headline, string(v.Status)+":"))
			assert.Equal(t, c.prefillMaxIn, v.Prefill.Limits.MaxReqInputLen())
			assert.Equal(t, c.decodeMaxIn, v.Decode.Limits.MaxReqInputLen())
			assert.Equal(t, c.window, v.Window)
			assert.Equal(t, c.mode, v.Mode)
			assert.Equal(t, c.apiContext, v.APIContext)
			text := v.String()
			for _, n := range c.notesContain {
				assert.Contains(t, text, "note:    "+n)
			}
			if v.Window.Open() {
				// The window is what the engine's limits say of its ends.
				for _, n := range []int{v.Window.First, v.Window.Last} {
					assert.True(t, v.Prefill.Limits.Rejects(n), "prefill rejects %d", n)
					assert.False(t, v.Decode.Limits.Rejects(n), "decode admits %d", n)
					assert.False(t, v.Decode.Limits.OverAPI(n), "the API passes %d", n)
				}
			}
		})
	}
}

// The hybrid pair's replay runs the pools its reported limits give.
func TestReplayOfReportedLimits(t *testing.T) {
	p, d := pair(t, "hybrid-swa")
	v, err := CheckText(p, d)
	require.NoError(t, err)
	r, err := v.Replay()
	require.NoError(t, err)
	assert.Equal(t, 100_000, r.Config.PoolTokens)
	assert.Equal(t, 131_072, r.Config.DecodePoolTokens)
	assert.Equal(t, v.Window, r.Config.Window(), "the replay's window is the verdict's")
	assert.Contains(t, r.Notes, "the replay's prefill pool is 100,000 tokens, as its reported max_req_input_len gives it (max_token_pool_size), not its max_total_num_tokens, 20,000")
}

// The three headlines of the issue, word for word.
func TestHeadlinesOfTheIssue(t *testing.T) {
	p, d := pair(t, "glm-launch")
	v, err := CheckText(p, d)
	require.NoError(t, err)
	assert.Equal(t, "EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21", v.Headline)
	p, d = pair(t, "symmetric")
	v, err = CheckText(p, d)
	require.NoError(t, err)
	assert.Equal(t, "NOT EXPOSED: the window is closed (prefill admits everything decode admits)", v.Headline)
	p, d = pair(t, "v0.5.21-mooncake")
	v, err = CheckText(p, d)
	require.NoError(t, err)
	assert.Equal(t, "PATCHED: the window is open but 0.5.21 retires the rejection at the door", v.Headline)
}

// The whole verdict of the launch, as the terminal and the page print it.
func TestLines(t *testing.T) {
	p, d := pair(t, "glm-launch")
	v, err := CheckText(p, d)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"EXPOSED: prompts of 681,274–1,048,569 tokens pass decode's door and take prefill's placeholder path; 0.5.20 (mooncake) predates the fix in 0.5.21",
		"prefill: max_req_len 681,279, max_req_input_len 681,274 = min(context 1,048,576 − 1, pool 681,280 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21",
		"decode:  max_req_len 1,048,575, max_req_input_len 1,048,570 = min(context 1,048,576 − 1, pool 1,048,576 − 1) − 5; 0.5.20 (mooncake) predates the fix in 0.5.21",
		"API:     refuses prompts of 1,048,576 tokens or more (context_length)",
		"window:  681,274–1,048,569 tokens (367,296 prompt lengths): prefill rejects them and decode admits them, so decode attends over the whole prompt while prefill sends one placeholder token",
	}, v.Lines())
}

// Releases and backends against the article's fixed versions.
func TestFixOf(t *testing.T) {
	for _, c := range []struct {
		version, backend string
		state            FixState
		words            string
	}{
		{"0.5.20", "mooncake", LacksFix, "0.5.20 (mooncake) predates the fix in 0.5.21"},
		{"0.5.21", "mooncake", HasFix, "0.5.21 (mooncake) carries the fix (from 0.5.21)"},
		{"0.5.21", "nixl", HasFix, "0.5.21 (nixl) carries the fix (from 0.5.21)"},
		{"0.5.21", "mooncake_tcp", HasFix, "0.5.21 (mooncake_tcp) carries the fix (from 0.5.21)"},
		{"0.5.21", "mori", LacksFix, "0.5.21 (mori) predates the fix in 0.5.22"},
		{"0.5.22", "mori", HasFix, "0.5.22 (mori) carries the fix (from 0.5.22)"},
		{"0.5.20.post3", "mooncake", LacksFix, "0.5.20.post3 (mooncake) predates the fix in 0.5.21"},
		{"0.5.21.post1", "nixl", HasFix, "0.5.21.post1 (nixl) carries the fix (from 0.5.21)"},
		{"0.5.21rc2", "mooncake", FixUnknown, "0.5.21rc2 (mooncake) is a pre-release of 0.5.21: whether it carries the fix is unknown"},
		{"0.5.22rc0", "mooncake", HasFix, "0.5.22rc0 (mooncake) carries the fix (from 0.5.21)"},
		{"0.4.10", "mooncake", LacksFix, "0.4.10 (mooncake) predates the fix in 0.5.21"},
		{"0.6.0", "mori", HasFix, "0.6.0 (mori) carries the fix (from 0.5.22)"},
		{"1.0.0+cu126", "mooncake", HasFix, "1.0.0+cu126 (mooncake) carries the fix (from 0.5.21)"},
		{"0.5.21", "ascend", FixUnknown, "0.5.21 (ascend): the article names no fixed release for the ascend backend"},
		{"", "mooncake", FixUnknown, "the JSON has no version (mooncake has the fix from 0.5.21)"},
		{"0.0.0.dev1+g87549f8f0", "mooncake", FixUnknown, "0.0.0.dev1+g87549f8f0 (mooncake) is a development build that names no release, commit 87549f8f0: whether it carries the fix in 0.5.21 is unknown"},
		{"0.0.0.dev0", "mori", FixUnknown, "0.0.0.dev0 (mori) is a development build that names no release: whether it carries the fix in 0.5.22 is unknown"},
		{"0.0.0.dev12+g1a2b3c4.d20260320", "nixl", FixUnknown, "0.0.0.dev12+g1a2b3c4.d20260320 (nixl) is a development build that names no release, commit 1a2b3c4: whether it carries the fix in 0.5.21 is unknown"},
	} {
		f := FixOf(Server{Source: FromServerInfo, Version: c.version, Backend: c.backend})
		assert.Equal(t, c.state, f.State, "%s %s", c.version, c.backend)
		assert.Equal(t, c.words, f.Words)
	}
	f := FixOf(Server{Source: FromLaunch, Backend: "nixl"})
	assert.Equal(t, "the launch command does not say the SGLang release (nixl has the fix from 0.5.21)", f.Words)
}

func TestParseVersion(t *testing.T) {
	for s, ok := range map[string]bool{
		"0.5.21": true, "v0.5.21": true, "0.5.21.post1": true, "0.5.21post1": true, "0.5.21-rc1": true,
		"0.5.21rc0": true, "0.5.21.dev0": true, "0.5.21a1": true, "0.5.21b2": true, "0.5.21+cu126": true, "0.5.21rc": true,
		"": false, "0.5": false, "0.5.21.1": false, "latest": false, "main": false, "0.5.x": false, "0.5.21foo": false,
		"1234567.0.0": false, "0.5.21rc1x": false, "-0.5.21": false, "0..21": false,
	} {
		_, got := parseVersion(s)
		assert.Equal(t, ok, got, "%q", s)
	}
	older := []string{"0.5.20", "0.5.21.dev1", "0.5.21a1", "0.5.21b1", "0.5.21rc1", "0.5.21"}
	for i := 1; i < len(older); i++ {
		a, _ := parseVersion(older[i-1])
		b, _ := parseVersion(older[i])
		assert.True(t, a.less(b), "%s < %s", older[i-1], older[i])
		assert.False(t, b.less(a))
	}
}
