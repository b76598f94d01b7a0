package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web/model"
)

const demoLog = "t,tenant,prompt_tokens,output_tokens\n0,A,120,4\n1,B,125,4\n"

func replayCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := runIn(append([]string{"replay"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// The demo's two requests, replayed from stdin at the demo's settings: B's
// response leaked (exit 1), A's KV to B, and a link to a run that shows it.
func TestReplayCommandTellsTheLeak(t *testing.T) {
	code, out, errOut := replayCmd(t, demoLog, "-preset", "demo", "-")
	assert.Equal(t, 1, code)
	assert.Empty(t, errOut)
	assert.Contains(t, out, "leaked responses                      1              0")
	assert.Contains(t, out, "A → B: 1, 7, 119")
	_, query, ok := strings.Cut(out, "A run that shows it in the playground: ?")
	require.True(t, ok)
	st, err := model.DecodeLink(strings.TrimSpace(strings.SplitN(query, "\n", 2)[0]))
	require.NoError(t, err, "the link opens on the page")
	assert.Len(t, st.Ops, 2)
}

// -json is the whole result for machines; nothing leaks through the fixed
// door at any settings, and a log below the window exits 0.
func TestReplayCommandJSON(t *testing.T) {
	code, out, _ := replayCmd(t, demoLog, "-preset", "demo", "-json", "-")
	require.Equal(t, 1, code)
	var got struct {
		Vulnerable, Fixed struct{ Requests, Leaked, Rejected int }
		FirstLeakLink     string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, 2, got.Vulnerable.Requests)
	assert.Equal(t, 1, got.Vulnerable.Leaked)
	assert.Equal(t, 0, got.Fixed.Leaked)
	assert.Equal(t, 1, got.Fixed.Rejected)
	assert.True(t, strings.HasPrefix(got.FirstLeakLink, "?v="))

	code, _, _ = replayCmd(t, "t,tenant,prompt_tokens,output_tokens\n0,A,100,4\n1,B,100,4\n", "-preset", "demo", "-")
	assert.Equal(t, 0, code, "nothing in the window, nothing leaked")
}

// Unusable input exits 2 with a message and prints nothing on stdout.
func TestReplayCommandRefuses(t *testing.T) {
	for _, c := range []struct {
		stdin string
		args  []string
		msg   string
	}{
		{"", nil, replayUsage},
		{"", []string{"-preset", "demo", "-link", "?v=3", "-"}, "-preset and -link both give the settings: give one"},
		{"", []string{"-preset", "nope", "-"}, `no preset "nope"`},
		{"", []string{"-link", "?v=3&ctx=abc", "-"}, "the link:"},
		{"", []string{"-share", "-1", "-"}, "-share: tenants -1"},
		{"", []string{"-prefill-tps", "0", "-"}, "prefill throughput"},
		{"x", []string{"-fix", "vulnerable", "-"}, `fix "vulnerable"`},
		{"", []string{"no-such-file.csv"}, "no-such-file.csv"},
		{"", []string{"-"}, "empty"},
		{"t,tenant,prompt_tokens,output_tokens\nx,A,1,1\n", []string{"-"}, "no request could be read"},
	} {
		code, out, errOut := replayCmd(t, c.stdin, c.args...)
		assert.Equal(t, 2, code, "%q", c.args)
		assert.Empty(t, out, "%q", c.args)
		assert.Contains(t, errOut, c.msg, "%q", c.args)
	}
}
