package web

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
)

func TestLogWindowStartMovesInBlocks(t *testing.T) {
	for _, c := range []struct{ n, want int }{
		{0, 0}, {1, 0}, {maxLogRows, 0},
		{maxLogRows + 1, logBlock}, {maxLogRows + logBlock, logBlock},
		{maxLogRows + logBlock + 1, 2 * logBlock},
	} {
		assert.Equal(t, c.want, logWindowStart(c.n), "n=%d", c.n)
	}
	for n := 0; n < 5*maxLogRows; n++ {
		start := logWindowStart(n)
		require.LessOrEqual(t, n-start, maxLogRows, "n=%d lists too many", n)
		require.Zero(t, start%logBlock, "n=%d", n)
		if n > maxLogRows {
			require.Greater(t, n-start, maxLogRows-logBlock, "n=%d lists too few", n)
		}
	}
}

// sendN sends n small requests as tenant A.
func sendN(t *testing.T, s *session, n int) {
	t.Helper()
	s.tenant, s.text[fieldTokens], s.text[fieldSecret] = "A", "3", "x"
	for range n {
		require.NoError(t, s.send())
	}
}

// logBlockHTML is a block rendered from scratch: what the cache must give.
func logBlockHTML(evs []engine.Event, selected int) string {
	rows := make([]string, len(evs))
	for i, ev := range evs {
		rows[i] = logRowHTML(ev, ev.Step == selected)
	}
	return joinLogBlock(evs, rows)
}

// freshBlocks is what logBlocksFor must equal: every listed block built anew.
func freshBlocks(s *session) []string {
	evs := s.eng.Events()
	out := []string{}
	for first := logWindowStart(len(evs)); first < len(evs); first += logBlock {
		out = append(out, logBlockHTML(evs[first:min(first+logBlock, len(evs))], s.step))
	}
	return out
}

// sameBytes reports whether a and b share their bytes: the cache kept the
// string rather than building an equal one.
func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestLogBlocksForRebuildsOnlyWhatChanged(t *testing.T) {
	s := newSession()
	var c viewCache
	require.Equal(t, freshBlocks(s), c.logBlocksFor(s), "the demo run on first render")
	s.reset()
	assert.Empty(t, c.logBlocksFor(s), "a new run drops the old blocks")

	sendN(t, s, 12) // 10 events each: past one block
	before := c.logBlocksFor(s)
	require.Equal(t, freshBlocks(s), before)
	require.Len(t, before, 2)

	sendN(t, s, 1)
	after := c.logBlocksFor(s)
	require.Equal(t, freshBlocks(s), after)
	assert.True(t, sameBytes(before[0], after[0]), "a full block is kept across a Send")
	assert.False(t, sameBytes(before[1], after[1]), "the newest block grows")

	require.NoError(t, s.selectStep(5))
	sel := c.logBlocksFor(s)
	require.Equal(t, freshBlocks(s), sel, "a selection marks its row")
	assert.True(t, sameBytes(after[1], sel[1]), "a selection elsewhere leaves a block alone")
	require.NoError(t, s.selectStep(logBlock+5))
	require.Equal(t, freshBlocks(s), c.logBlocksFor(s), "and moves between blocks")
	require.NoError(t, s.selectStep(0))
	latest := c.logBlocksFor(s)
	require.Equal(t, freshBlocks(s), latest, "the latest step marks no row")
	assert.Equal(t, 0, strings.Count(strings.Join(latest, ""), `aria-pressed="true"`))

	sendN(t, s, 40) // past maxLogRows: the window moves
	blocks := c.logBlocksFor(s)
	require.Equal(t, freshBlocks(s), blocks)
	evs := s.eng.Events()
	require.Greater(t, len(evs), maxLogRows)
	assert.Contains(t, blocks[0], `data-step="`+strconv.Itoa(logWindowStart(len(evs))+1)+`"`)
	assert.Contains(t, blocks[len(blocks)-1], `data-step="`+strconv.Itoa(len(evs))+`"`)

	s.reset()
	assert.Empty(t, c.logBlocksFor(s))
}

// BenchmarkLogAfterSend is the log's share of a render after a Send of
// sendEvents events with about 250 listed: its new rows and the newest
// block ("blocks"), or every listed row, as before the blocks ("whole-list").
func BenchmarkLogAfterSend(b *testing.B) {
	s := newSession()
	s.tenant, s.text[fieldTokens], s.text[fieldSecret] = "A", "3", "x"
	for len(s.eng.Events()) < 2*maxLogRows-logBlock/2 {
		if err := s.send(); err != nil {
			b.Fatal(err)
		}
	}
	evs := s.eng.Events()
	const sendEvents = 10 // one small request's events
	b.Run("blocks", func(b *testing.B) {
		var c viewCache
		c.logBlocksFor(s)
		for b.Loop() {
			// Forget the newest request, as if it had just been sent.
			c.log.rows = c.log.rows[:len(c.log.rows)-sendEvents]
			c.log.blocks[len(c.log.blocks)-1].n -= sendEvents
			c.logBlocksFor(s)
		}
	})
	b.Run("whole-list", func(b *testing.B) {
		listed := evs[logWindowStart(len(evs)):]
		for b.Loop() {
			logBlockHTML(listed, 0)
		}
	})
}
