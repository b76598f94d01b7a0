package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunks with blocks of 4: the first grows to 4 as a slice would, the next
// are made whole; every element stays at its index, and copies hold them
// in order.
func TestChunksGrowByBlocks(t *testing.T) {
	const n = 4
	var c chunks[int]
	var want []int
	for i := range 11 {
		p := c.add(i*10, n)
		assert.Equal(t, i*10, *p)
		want = append(want, i*10)
		require.Equal(t, len(want), c.len)
		for j, w := range want {
			require.Equal(t, w, *c.at(j, n), "element %d after %d adds", j, i+1)
		}
	}
	require.Len(t, c.blocks, 3)
	for i, b := range c.blocks {
		assert.LessOrEqual(t, cap(b), n, "block %d", i)
		if i > 0 {
			assert.Equal(t, n, cap(b), "block %d is made whole", i)
		}
	}
	assert.Equal(t, want, c.copyTo(nil, c.len, n))
	assert.Equal(t, want[:6], c.copyTo(nil, 6, n), "a prefix")
	third := c.at(8, n)
	c.add(110, n)
	assert.Same(t, third, c.at(8, n), "a full block's elements do not move")
}
