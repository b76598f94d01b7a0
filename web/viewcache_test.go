package web

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestViewCacheRecomputesOnlyOnChange(t *testing.T) {
	s := newSession()
	var c viewCache
	g1, err := c.gridFor(s, maxGridCells)
	require.NoError(t, err)
	g2, _ := c.gridFor(s, maxGridCells)
	assert.Same(t, &g1.Cells[0], &c.grid.Cells[0])
	assert.Equal(t, g1, g2)
	snap := c.snapshotFor(s)
	assert.Same(t, snap, c.snapshotFor(s), "hovering re-renders without a new snapshot")

	s.tenant, s.text[fieldTokens], s.text[fieldSecret] = "C", "4", "x"
	require.NoError(t, s.send())
	g3, _ := c.gridFor(s, maxGridCells)
	assert.NotEqual(t, g1.Cells[0].Owner, g3.Cells[0].Owner, "C's request took page 0")
	assert.NotSame(t, snap, c.snapshotFor(s))

	require.NoError(t, s.selectStep(3))
	assert.Equal(t, 3, c.snapshotFor(s).Step())

	cmp, grids, err := c.compareFor(s)
	require.NoError(t, err)
	again, gridsAgain, _ := c.compareFor(s)
	assert.Same(t, cmp.Vulnerable.Snapshot, again.Vulnerable.Snapshot)
	assert.Same(t, &grids[0].Cells[0], &gridsAgain[0].Cells[0], "mini grids are kept with the comparison")
	require.NoError(t, s.renameTenant("Zed"))
	g4, _ := c.gridFor(s, maxGridCells)
	assert.Equal(t, "Zed", s.tenant)
	assert.NotNil(t, g4.Cells)
}
