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

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"dem"}, {"demo", "extra"}, {"check"}, {"check", "-prefill", "x"}, {"check", "-decode", "x"},
		{"check", "-prefill", "x", "-decode", "y", "z"}, {"check", "-bogus"}, {"check", "-h"}} {
		var out, errOut bytes.Buffer
		assert.Equal(t, 2, run(args, &out, &errOut), "%q", args)
		assert.Equal(t, "kvleak: "+usage+"\n", errOut.String(), "%q", args)
		assert.Empty(t, out.String())
	}
}
