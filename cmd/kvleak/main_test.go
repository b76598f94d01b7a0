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
	var out bytes.Buffer
	require.NoError(t, run([]string{"demo"}, &out))
	article, notes, ok := strings.Cut(out.String(), "\n\nNotes")
	require.True(t, ok, "notes follow the transcript")
	assert.Equal(t, string(want), article+"\n")
	assert.Contains(t, notes, "article's wording")
	assert.Contains(t, notes, "Input length (125 tokens) exceeds the maximum allowed length (122 tokens).")
	assert.Contains(t, notes, "attended over all 125 positions; prefill wrote 1")
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"dem"}, {"demo", "extra"}} {
		var out bytes.Buffer
		assert.EqualError(t, run(args, &out), "usage: kvleak demo", "%q", args)
		assert.Empty(t, out.String())
	}
}
