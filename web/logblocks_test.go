package web

import (
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// sendN sends n small requests as tenant A.
func sendN(t *testing.T, s *model.Session, n int) {
	t.Helper()
	typeRequest(t, s, "A", "3", "x")
	for range n {
		require.NoError(t, s.Send())
	}
}

// logBlockHTML is a block rendered from scratch: what the cache must give.
func logBlockHTML(evs []engine.Event, selected int) string {
	rows := make([]string, len(evs))
	for i := range evs {
		rows[i] = logRowHTML(&evs[i], evs[i].Step == selected)
	}
	if len(evs) == 0 {
		return joinLogBlock(0, 0, rows)
	}
	return joinLogBlock(evs[0].Step, evs[len(evs)-1].Step, rows)
}

// freshBlocks is what logBlocksFor must equal: every listed block built
// anew, after an empty one in the place of each block the window has left
// since its places last moved.
func freshBlocks(s *model.Session) []string {
	evs := s.Engine().Log().Copy()
	out := []string{}
	start := model.LogWindowStart(len(evs))
	for range (start - logPlacesFrom(start)) / model.LogBlock {
		out = append(out, `<ol class="log-block" hidden></ol>`)
	}
	for first := start; first < len(evs); first += model.LogBlock {
		out = append(out, logBlockHTML(evs[first:min(first+model.LogBlock, len(evs))], s.Step()))
	}
	return out
}

// sameBytes reports whether a and b share their bytes: the cache kept the
// string rather than building an equal one.
func sameBytes(a, b string) bool { return unsafe.StringData(a) == unsafe.StringData(b) }

func TestLogBlocksForRebuildsOnlyWhatChanged(t *testing.T) {
	s := model.NewSession()
	var c logBlocks
	require.Equal(t, freshBlocks(s), c.render(s.Engine().Log(), s.Step()), "the demo run on first render")
	s.Reset()
	assert.Empty(t, c.render(s.Engine().Log(), s.Step()), "a new run drops the old blocks")

	sendN(t, s, model.LogBlock/10+2) // 10 events each: past one block, short of two
	before := c.render(s.Engine().Log(), s.Step())
	require.Equal(t, freshBlocks(s), before)
	require.Len(t, before, 2)

	sendN(t, s, 1)
	after := c.render(s.Engine().Log(), s.Step())
	require.Equal(t, freshBlocks(s), after)
	assert.True(t, sameBytes(before[0], after[0]), "a full block is kept across a Send")
	assert.False(t, sameBytes(before[1], after[1]), "the newest block grows")

	require.NoError(t, s.SelectStep(5))
	sel := c.render(s.Engine().Log(), s.Step())
	require.Equal(t, freshBlocks(s), sel, "a selection marks its row")
	assert.True(t, sameBytes(after[1], sel[1]), "a selection elsewhere leaves a block alone")
	require.NoError(t, s.SelectStep(model.LogBlock+5))
	require.Equal(t, freshBlocks(s), c.render(s.Engine().Log(), s.Step()), "and moves between blocks")
	require.NoError(t, s.SelectStep(0))
	latest := c.render(s.Engine().Log(), s.Step())
	require.Equal(t, freshBlocks(s), latest, "the latest step marks no row")
	assert.Equal(t, 0, strings.Count(strings.Join(latest, ""), `aria-pressed="true"`))

	sendN(t, s, 40) // past model.MaxLogRows: the window moves
	blocks := c.render(s.Engine().Log(), s.Step())
	require.Equal(t, freshBlocks(s), blocks)
	evs := s.Engine().Log().Copy()
	require.Greater(t, len(evs), model.MaxLogRows)
	start := model.LogWindowStart(len(evs))
	gaps := (start - logPlacesFrom(start)) / model.LogBlock
	assert.Contains(t, blocks[gaps], `data-step="`+strconv.Itoa(start+1)+`"`, "the first listed block follows the places the window left")
	assert.Contains(t, blocks[len(blocks)-1], `data-step="`+strconv.Itoa(len(evs))+`"`)

	s.Reset()
	assert.Empty(t, c.render(s.Engine().Log(), s.Step()))
}

// As the window moves on, each listed block keeps its place among the
// log's children and its HTML, so that go-app, which diffs children by
// position, replaces only the block the window left (with an empty one)
// and the newest; the places themselves move once per model.MaxLogRows
// events. With the oldest listed block always first, every block moved up
// a place and was parsed again, once per model.LogBlock events.
func TestTheLogsBlocksKeepTheirPlacesAsTheWindowMoves(t *testing.T) {
	s := model.NewSession()
	s.Reset()
	var c logBlocks
	places := model.MaxLogRows / model.LogBlock
	kept, placesMoved := 0, 0
	prev := c.render(s.Engine().Log(), s.Step())
	for range 150 { // 10 events a Send: five times past the window's length
		sendN(t, s, 1)
		evs := s.Engine().Log().Copy()
		got := c.render(s.Engine().Log(), s.Step())
		require.Equal(t, freshBlocks(s), got)
		require.LessOrEqual(t, len(got), 2*places, "at most a window of places left empty before the listed blocks")
		listed := 0
		for _, b := range got {
			if !strings.Contains(b, " hidden>") {
				listed += strings.Count(b, `<li class="log-row`)
			}
		}
		require.Equal(t, len(evs)-model.LogWindowStart(len(evs)), listed, "the listed rows are the window's")
		if len(got) < len(prev) { // the places moved on
			placesMoved++
			prev = got
			continue
		}
		for i := 0; i < len(prev)-1; i++ { // all but the newest block, which grew
			if got[i] == logGapHTML && prev[i] != logGapHTML {
				continue // the block the window left
			}
			// go-app compares a raw element's string: an equal one stays.
			require.Equal(t, prev[i], got[i], "block %d keeps its place at %d events", i, len(evs))
			if got[i] != logGapHTML {
				kept++
			}
		}
		prev = got
	}
	require.Greater(t, s.Engine().Log().Len(), 4*model.MaxLogRows)
	assert.Greater(t, kept, 1000, "listed blocks were kept in place")
	// They move when the window's start reaches a multiple of MaxLogRows,
	// which it does once past MaxLogRows-LogBlock events more than that.
	n := s.Engine().Log().Len()
	assert.Equal(t, (n-(model.MaxLogRows-model.LogBlock)-1)/model.MaxLogRows, placesMoved,
		"the places move on once per window's length of events")
}

// BenchmarkLogAfterSend is the log's share of a render after a Send of
// sendEvents events with about 250 listed: its new rows and the newest
// block ("blocks"), or every listed row, as before the blocks ("whole-list").
func BenchmarkLogAfterSend(b *testing.B) {
	s := model.NewSession()
	typeRequest(b, s, "A", "3", "x")
	for s.Engine().Log().Len() < 2*model.MaxLogRows-model.LogBlock/2 {
		if err := s.Send(); err != nil {
			b.Fatal(err)
		}
	}
	evs := s.Engine().Log().Copy()
	const sendEvents = 10 // one small request's events
	b.Run("blocks", func(b *testing.B) {
		var c logBlocks
		c.render(s.Engine().Log(), s.Step())
		for b.Loop() {
			// Forget the newest request, as if it had just been sent.
			c.rows = c.rows[:len(c.rows)-sendEvents]
			c.blocks[len(c.blocks)-1].n -= sendEvents
			c.render(s.Engine().Log(), s.Step())
		}
	})
	b.Run("whole-list", func(b *testing.B) {
		listed := evs[model.LogWindowStart(len(evs)):]
		for b.Loop() {
			logBlockHTML(listed, 0)
		}
	})
}

// typeRequest fills the request form as a reader would.
func typeRequest(t testing.TB, s *model.Session, tenant, tokens, content string) {
	t.Helper()
	require.NoError(t, s.SelectTenant(tenant))
	require.NoError(t, s.SetText(model.PromptTokens, tokens))
	require.NoError(t, s.SetText(model.Secret, content))
}
