package main

import (
	"bytes"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The demo prints, line for line, what the article's demo printed
// (testdata/article-demo.txt is copied from the article).
func TestDemoMatchesTheArticle(t *testing.T) {
	want, err := os.ReadFile("testdata/article-demo.txt")
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, run([]string{"demo"}, &out))
	assert.Equal(t, string(want), out.String())
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"dem"}, {"demo", "extra"}} {
		var out bytes.Buffer
		assert.EqualError(t, run(args, &out), "usage: kvleak demo", "%q", args)
		assert.Empty(t, out.String())
	}
}
