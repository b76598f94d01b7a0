package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo prints, line for line, what the article's demo printed
// (testdata/article-demo.txt is copied from the article), then its notes,
// which name both wordings of the 400.
func TestDemoMatchesTheArticle(t *testing.T) {
	want, err := os.ReadFile("testdata/article-demo.txt")
	require.NoError(t, err)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run([]string{"demo"}, &out, &errOut))
	assert.Empty(t, errOut.String())
	article, notes, ok := strings.Cut(out.String(), "\n\nNotes")
	require.True(t, ok, "notes follow the transcript")
	assert.Equal(t, string(want), article+"\n")
	assert.Contains(t, notes, "article's wording")
	assert.Contains(t, notes, "Input length (125 tokens) exceeds the maximum allowed length (122 tokens).")
	assert.Contains(t, notes, "attended over all 125 positions; prefill wrote 1")
}

// A misuse exits 2 and says why, with the usage line and where the flags
// are explained; nothing on stdout.
func TestUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{nil, usage},
		{[]string{"dem"}, `unknown command "dem"`},
		{[]string{"demo", "extra"}, "demo takes no arguments\nusage: kvleak demo\nRun 'kvleak demo -h' for its flags."},
		{[]string{"check"}, "check needs -prefill FILE and -decode FILE"},
		{[]string{"check", "-prefill", "x"}, "check needs -prefill FILE and -decode FILE"},
		{[]string{"check", "-decode", "x"}, "check needs -prefill FILE and -decode FILE"},
		{[]string{"check", "-prefill", "x", "-decode", "y", "z"}, "check needs -prefill FILE and -decode FILE, and no arguments"},
		{[]string{"check", "-bogus"}, "flag provided but not defined: -bogus\nusage: kvleak check -prefill FILE -decode FILE\nRun 'kvleak check -h' for its flags."},
		{[]string{"replay", "-instances", "x", "-"}, `invalid value "x" for flag -instances`},
	} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(c.args, &out, &errOut), "%q", c.args)
		assert.True(t, strings.HasPrefix(errOut.String(), "kvleak: "), "%q: %s", c.args, errOut.String())
		assert.Contains(t, errOut.String(), c.msg, "%q", c.args)
		assert.Empty(t, out.String())
	}
}
