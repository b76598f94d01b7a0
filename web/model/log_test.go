package model

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogWindowStartMovesInBlocks(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 0}, {1, 0}, {MaxLogRows, 0},
		{MaxLogRows + 1, LogBlock}, {MaxLogRows + LogBlock, LogBlock},
		{MaxLogRows + LogBlock + 1, 2 * LogBlock},
	} {
		assert.Equal(t, c.want, LogWindowStart(c.n), "n=%d", c.n)
	}
	for n := 0; n < 5*MaxLogRows; n++ {
		start := LogWindowStart(n)
		require.LessOrEqual(t, n-start, MaxLogRows, "n=%d lists too many", n)
		require.Zero(t, start%LogBlock, "n=%d", n)
		if n > MaxLogRows {
			require.Greater(t, n-start, MaxLogRows-LogBlock, "n=%d lists too few", n)
		}
	}
}
