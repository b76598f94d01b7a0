package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The log across its chunks: each event in place at its step, a view
// fixed at the length it was taken, an event's address kept as the log
// grows once the first block is full, and no index past the view.
func TestTheLogKeepsItsEventsAcrossChunks(t *testing.T) {
	cfg := glmOneHalf(t)
	e := newEngine(t, cfg)
	ops := mixedOps(t, cfg, 400, 3)
	var early Log
	var firstEvent *Event
	for i, op := range ops {
		require.NoError(t, e.Apply(op))
		if i == 10 {
			early = e.Log()
		}
		if firstEvent == nil && e.Log().Len() > logChunk {
			firstEvent = e.Log().At(0)
		}
	}
	l := e.Log()
	require.Greater(t, l.Len(), 2*logChunk, "the run spans chunks")
	all := l.Copy()
	require.Len(t, all, l.Len())
	for i := range l.Len() {
		require.Equal(t, i+1, l.At(i).Step)
		require.Equal(t, all[i], *l.At(i))
	}
	assert.Less(t, early.Len(), logChunk)
	assert.Equal(t, all[:early.Len()], early.Copy(), "an earlier view is its prefix")
	assert.Same(t, firstEvent, l.At(0), "events do not move once their block is full")
	assert.Panics(t, func() { early.At(early.Len()) })
	assert.Panics(t, func() { l.At(-1) })
	assert.Empty(t, Log{}.Copy())
}
