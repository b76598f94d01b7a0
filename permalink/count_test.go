package permalink

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCount(t *testing.T) {
	good := []struct {
		in   string
		want int
	}{
		{"681280", 681_280}, {"681,280", 681_280}, {" 681 280 ", 681_280}, {"681_280", 681_280},
		{"1M", 1_000_000}, {"1m", 1_000_000}, {"2.04M", 2_040_000}, {"1Mi", 1_048_576},
		{"64Ki", 65_536}, {"8", 8}, {"1,048,576", 1_048_576}, {"4Mi", 4_194_304},
	}
	for _, c := range good {
		got, err := ParseCount(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
	bad := []struct{ in, msg string }{
		{"", "enter a number"}, {"abc", "not a number"}, {"-5", "positive"}, {"0", "at least 1"},
		{"1.5", "whole number"}, {"1e9", "not a number"}, {"1/2", "not a number"},
		{"99999999999999999999999", "far too large"}, {"2Gi000", "not a number"},
		{"1099511627777", "far too large"}, {"NaN", "not a number"}, {"0x10", "not a number"},
	}
	for _, c := range bad {
		_, err := ParseCount(c.in)
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.msg, c.in)
	}
}

func TestParseCountEdges(t *testing.T) {
	for _, in := range []string{".", "1.", "1.0000001M", "9999999999999.999999Gi", "1..2"} {
		_, err := ParseCount(in)
		assert.Error(t, err, in)
	}
	n, err := ParseCount("0.5K")
	require.NoError(t, err)
	assert.Equal(t, 500, n)
	n, err = ParseCount("1024Gi")
	require.NoError(t, err)
	assert.Equal(t, 1<<40, n)
	_, err = ParseCount("1025Gi")
	assert.ErrorContains(t, err, "far too large")
}
