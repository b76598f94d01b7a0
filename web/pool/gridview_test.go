package pool

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGridMove(t *testing.T) {
	for _, c := range []struct {
		key            string
		i, n, cols, to int
	}{
		{"ArrowRight", 0, 8, 4, 1}, {"ArrowLeft", 0, 8, 4, 0}, {"ArrowDown", 1, 8, 4, 5},
		{"ArrowDown", 5, 8, 4, 5}, {"ArrowUp", 5, 8, 4, 1}, {"Home", 5, 8, 4, 0},
		{"End", 2, 8, 4, 7}, {"a", 2, 8, 4, 2}, {"ArrowDown", 0, 8, 0, 1},
	} {
		assert.Equal(t, c.to, gridMove(c.key, c.i, c.n, c.cols), "%+v", c)
	}
}
