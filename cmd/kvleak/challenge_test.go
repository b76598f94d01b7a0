package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/challenge"
	"kvleak/engine"
	"kvleak/internal/jsonlite"
	"kvleak/permalink"
)

// challengeLink is challenge n's start followed by tenant B's prompt of
// promptTokens(start's settings) tokens, as a permalink's query.
func challengeLink(t *testing.T, n int, promptTokens func(engine.Config) int) (string, engine.Config, []engine.Op) {
	c, err := challenge.Get(n)
	require.NoError(t, err)
	cfg, ops, err := c.Start()
	require.NoError(t, err)
	ops = append(ops, engine.SendOp(engine.Request{Tenant: "B", PromptTokens: promptTokens(cfg), Content: "probe"}))
	return permalink.EncodeLink(permalink.LinkState{Config: cfg, Ops: ops}, "challenge="+strconv.Itoa(n)), cfg, ops
}

func windowFirst(d int) func(engine.Config) int {
	return func(c engine.Config) int { return c.Window().First + d }
}

func grade(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(append([]string{"challenge"}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestChallengeGradesALink(t *testing.T) {
	solved, _, _ := challengeLink(t, 1, windowFirst(0))
	code, out, errOut := grade("1", "-link", "https://example.org/kvleak/?"+solved)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "verdict:  solved")
	assert.Contains(t, out, "lesson:")

	missed, _, _ := challengeLink(t, 1, windowFirst(-1))
	code, out, _ = grade("-link", missed, "1") // flags first works too
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "verdict:  not solved")
	assert.NotContains(t, out, "lesson:")
}

// The question challenge needs the run's proof and the answer.
func TestChallengeTakesAnAnswer(t *testing.T) {
	probe, _, _ := challengeLink(t, 6, func(c engine.Config) int { return c.LimitsOf(engine.ServerPrefill).MaxReqInputLen() })
	code, out, _ := grade("6", "-link", probe)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "question:")
	assert.Contains(t, out, "Now answer")
	code, _, _ = grade("6", "-link", probe, "-answer", "can")
	assert.Equal(t, 1, code)
	code, out, _ = grade("6", "-link", probe, "-answer", "cannot")
	assert.Equal(t, 0, code, out)
}

// A run too long for a link is graded from its exported file.
func TestChallengeGradesARunFile(t *testing.T) {
	_, cfg, ops := challengeLink(t, 4, windowFirst(0))
	e, err := engine.Replay(cfg, ops)
	require.NoError(t, err)
	data, err := jsonlite.Marshal(e.Export(ops))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, data, 0o600))
	code, out, _ := grade("4", "-file", path)
	assert.Equal(t, 0, code, out)
	code, _, _ = grade("5", "-file", path)
	assert.Equal(t, 1, code)
}

func TestChallengeHelpListsTheLadder(t *testing.T) {
	code, out, errOut := grade("-h")
	assert.Equal(t, 0, code)
	assert.Empty(t, errOut)
	assert.Contains(t, out, challengeUsage)
	for _, c := range challenge.Ladder() {
		assert.Contains(t, out, c.Title)
	}
}

func TestChallengeRefusesBadInput(t *testing.T) {
	link, _, _ := challengeLink(t, 1, windowFirst(0))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, challengeUsage},
		{[]string{"1"}, challengeUsage},
		{[]string{"-link", link}, challengeUsage},
		{[]string{"1", "2", "-link", link}, challengeUsage},
		{[]string{"1", "-link", link, "-file", "run.json"}, challengeUsage},
		{[]string{"0", "-link", link}, "challenges 1 to"},
		{[]string{"one", "-link", link}, `challenge "one": a number from 1 to`},
		{[]string{"1", "-link", link, "-answer", "maybe"}, `must be "can" or "cannot"`},
		{[]string{"1", "-link", "v=3&pool=zero"}, "the link"},
		{[]string{"1", "-link", "v=3&tab=1"}, "tab=1"},
		{[]string{"1", "-file", filepath.Join(t.TempDir(), "none.json")}, "no such file"},
		{[]string{"1", "-bogus"}, challengeUsage},
	} {
		code, out, errOut := grade(tc.args...)
		assert.Equal(t, 2, code, "%q", tc.args)
		assert.Contains(t, errOut, tc.want, "%q", tc.args)
		assert.Empty(t, out, "%q", tc.args)
	}
}
