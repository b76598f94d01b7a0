package model

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/deploycheck"
	"kvleak/replay"
)

// The page's files of whom to tell are the bytes kvleak replay -pairs and
// -tenants write for the same log and settings, through four instances:
// the page steps a job a chunk at a time, the command runs replay.Run.
func TestReplayPageFilesAreTheCommands(t *testing.T) {
	text, err := os.ReadFile("../../static/traces/mooncake-conversation.csv")
	require.NoError(t, err)
	form := DefaultReplayForm()
	form.Instances = "4"
	opts, errs := form.Options(hourConfig())
	require.Nil(t, errs)
	job, err := StartReplay(bytes.NewReader(text), int64(len(text)), opts)
	require.NoError(t, err)
	for done := false; !done; {
		done, err = job.Step(700)
		require.NoError(t, err)
	}

	var pairs, tenants bytes.Buffer
	want, err := replay.Run(bytes.NewReader(text), replay.Options{Config: hourConfig(), Timing: replay.DefaultTiming, Instances: 4,
		Files: replay.Files{Pairs: &pairs, Tenants: &tenants}})
	require.NoError(t, err)
	require.Positive(t, want.Vulnerable.Leaked)
	files := job.Files()
	assert.Equal(t, pairs.String(), string(files.Pairs))
	assert.Equal(t, tenants.String(), string(files.Tenants))
	assert.GreaterOrEqual(t, bytes.Count(files.Pairs, []byte("\r\n"))-1, want.Vulnerable.Leaked, "a row per victim of each leaked response")
	assert.Equal(t, NewReplayView(want, false), NewReplayView(job.Result(), false))
}

// The form's instances: a whole number from 1 to replay.MaxInstances.
func TestReplayFormInstances(t *testing.T) {
	f := DefaultReplayForm()
	opts, errs := f.Options(hourConfig())
	require.Nil(t, errs)
	assert.Equal(t, 1, opts.Instances)
	f.Instances = "1,000"
	opts, errs = f.Options(hourConfig())
	require.Nil(t, errs)
	assert.Equal(t, 1000, opts.Instances)
	for _, bad := range []string{"0", "x", "1001", "-2"} {
		f.Instances = bad
		_, errs = f.Options(hourConfig())
		assert.Contains(t, errs[ReplayInstID], "Instances: ", bad)
	}
}

// A check that holds two servers hands the Replay panel their settings,
// with words that say which; a refused one hands none.
func TestServerSettingsForTheReplay(t *testing.T) {
	v := deploycheck.CheckReport(fixture(t, "glm-launch/prefill.json"), fixture(t, "glm-launch/decode.json"))
	require.NotNil(t, v.Settings)
	c := v.Settings.Config
	assert.Equal(t, []int{1_048_576, 681_280, 1_048_576, 1}, []int{c.ContextTokens, c.PoolTokens, c.DecodePoolTokens, c.PageTokens})
	assert.Equal(t, "The Deploy check holds two servers: context 1,048,576, prefill pool 681,280, decode pool 1,048,576 tokens, pages of 1, decode's reserve 512 tokens.", DescribeServers(v.Settings))
	notes := ServersReplayNotes(v.Settings)
	assert.Equal(t, "The settings are the two servers' pasted in the Deploy check: "+v.Lines[0]+".", notes[0])

	v = deploycheck.CheckReport(fixture(t, "hybrid-swa/prefill.json"), fixture(t, "hybrid-swa/decode.json"))
	require.NotNil(t, v.Settings)
	require.NotEmpty(t, v.Settings.Notes)
	assert.Regexp(t, `^The replay's .*\.$`, v.Settings.Notes[0])

	assert.Nil(t, deploycheck.CheckReport("{}", fixture(t, "glm-launch/decode.json")).Settings)
}

// fixture reads a deployment fixture's text (deploycheck/testdata).
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../deploycheck/testdata/" + name)
	require.NoError(t, err)
	return string(b)
}
