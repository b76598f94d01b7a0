package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The committed samples must be what the generator makes of the published
// traces, where they are at hand.
func TestCommittedSamplesAreUpToDate(t *testing.T) {
	const src = "../../../shared/traces"
	for name, from := range samples {
		f, err := os.Open(filepath.Join(src, from))
		if err != nil {
			t.Skipf("the published traces are not here: %v", err)
		}
		want, err := compact(f)
		f.Close()
		require.NoError(t, err, from)
		got, err := os.ReadFile(filepath.Join("../../static/traces", name))
		require.NoError(t, err)
		assert.True(t, string(want) == string(got), "%s is out of date: run `go generate ./cmd/gentraces`", name)
	}
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
