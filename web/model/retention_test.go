package model

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxBytesPerRequest bounds what a session keeps for each request it sends:
// its ten events in the log, its response, its record and its operation.
// The wasm's memory never shrinks and grows with this, times the heap's
// headroom (gcPercent): `make bench` holds the growth over 1,000 requests
// at 681,280 pages to the pool's size; the engine keeping a repeated text
// once (Engine.share) is what brings a request under this bound.
const maxBytesPerRequest = 4_000

// What a long session keeps per request, measured on the live heap.
func TestARequestKeepsFewBytes(t *testing.T) {
	s := NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.NoError(t, s.Send())
	_ = s.ScrubMarks()
	const n = 1000
	before := liveHeap()
	for range n {
		require.NoError(t, s.Send())
		_ = s.ScrubMarks() // as the page does: the scrubber's marks are kept too
	}
	perRequest := float64(liveHeap()-before) / n
	t.Logf("%.0f B kept per request", perRequest)
	assert.LessOrEqual(t, perRequest, float64(maxBytesPerRequest))
	runtime.KeepAlive(s)
}

// liveHeap is the bytes on the heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
