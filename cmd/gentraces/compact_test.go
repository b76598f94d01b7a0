package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/internal/testskip"
)

// The committed samples must be what the generator makes of the published
// traces, where they are at hand (skipped, and listed by make test, where
// they are not).
func TestCommittedSamplesAreUpToDate(t *testing.T) {
	for name, from := range samples {
		want := compactFile(t, testskip.PublishedTrace(t, "../..", from))
		assert.True(t, want == committed(t, name), "%s is out of date: run `go generate ./cmd/gentraces`", name)
	}
}

// The samples begin as the generator makes the published traces' first
// lines (replay/testdata holds them unchanged), with no traces at hand.
func TestCommittedSamplesBeginAsTheirExcerpts(t *testing.T) {
	for name, excerpt := range map[string]string{
		"mooncake-conversation.csv": "mooncake-conversation-head.jsonl",
		"mooncake-synthetic.csv":    "mooncake-synthetic-head.jsonl",
	} {
		want := compactFile(t, filepath.Join("../../replay/testdata", excerpt))
		assert.True(t, strings.HasPrefix(committed(t, name), want), "%s does not begin as the generator makes %s:\n%s", name, excerpt, want)
	}
}

// compactFile is what the generator makes of a file.
func compactFile(t *testing.T, path string) string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	b, err := compact(f)
	require.NoError(t, err, path)
	return string(b)
}

// committed is the sample as committed in static/traces.
func committed(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join("../../static/traces", name))
	require.NoError(t, err)
	return string(b)
}

func TestCompact(t *testing.T) {
	got, err := compact(strings.NewReader(`{"t": 0, "tenant": "A, \"B\"", "prompt_tokens": 5, "output_tokens": 1}
{"t": 1.000000001, "tenant": "C", "prompt_tokens": 6, "output_tokens": 0}`))
	require.NoError(t, err)
	assert.Equal(t, "t,tenant,prompt_tokens,output_tokens\n0,\"A, \"\"B\"\"\",5,1\n1.000000001,C,6,0\n", string(got))

	got, err = compact(strings.NewReader("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:50.9951690,396,109\n"))
	require.NoError(t, err)
	assert.Equal(t, "t,prompt_tokens,output_tokens\n0,374,44\n4.314579,396,109\n", string(got))

	_, err = compact(strings.NewReader("t,prompt_tokens,output_tokens\n0,1,1\nx,1,1\n"))
	assert.EqualError(t, err, `lines skipped: 1; the first, line 3: t: "x" is not a plain decimal number`)
}

func TestSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0", time.Second: "1", 12345 * time.Millisecond: "12.345", 3537*time.Second + 1: "3537.000000001",
	} {
		assert.Equal(t, want, seconds(d))
	}
}
