package dom

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A leaked run of one row is ringed twice and has cross-hairs from the
// four edges that stop short of the outer ring.
func TestRingPathCallsOutARowFromEachEdge(t *testing.T) {
	got := ringPath([][][3]int{{{40, 30, 3}}}, 100, 80)
	assert.Equal(t,
		"M36 26h11v9h-11Z"+"M30 20h23v21h-23Z"+
			"M0 30L30 30"+"M53 30L100 30"+"M40 0L40 20"+"M40 41L40 80", got)
}

// Cross-hairs with no room between the edge and the ring are left out:
// a row in the map's corner has only the two that reach it.
func TestRingPathLeavesOutCrossHairsWithNoRoom(t *testing.T) {
	got := ringPath([][][3]int{{{0, 0, 100}}}, 100, 80)
	assert.Equal(t, "M-4 -4h108v9h-108Z"+"M-10 -10h120v21h-120Z"+"M0 11L0 80", got)
}

// A run of many rows gets one frame across the map's width around all of
// them; runs of one and two rows beside it keep their rings.
func TestRingPathFramesARunOfManyRows(t *testing.T) {
	got := ringPath([][][3]int{
		{{5, 10, 95}, {0, 11, 100}, {0, 12, 20}},
		{{50, 40, 1}, {0, 41, 1}},
	}, 100, 80)
	assert.Equal(t, "M1 9h98v5h-98Z"+
		"M46 36h9v9h-9Z"+"M40 30h21v21h-21Z"+"M0 40L40 40"+"M61 40L100 40"+"M50 0L50 30"+"M50 51L50 80"+
		"M-4 37h9v9h-9Z"+"M-10 31h21v21h-21Z"+"M11 41L100 41"+"M0 0L0 31"+"M0 52L0 80", got)
}

// No leak, no path: the map is drawn without a stroke.
func TestRingPathIsEmptyWithoutLeaks(t *testing.T) {
	assert.Empty(t, ringPath(nil, 100, 80))
	assert.Empty(t, ringPath([][][3]int{}, 100, 80))
}
