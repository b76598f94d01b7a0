package dom

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// logBlockHTML is a block rendered from scratch: what the island must give.
// Events first..last-1 of evs.
func logBlockHTML(evs model.Events, first, last, selected int) string {
	var b strings.Builder
	for i := first; i < last; i++ {
		r := evs.Row(i)
		writeLogRow(&b, r, r.Step == selected)
	}
	open, close := logRows{}.Block(first, last-first, 0)
	return open + b.String() + close
}

// freshBlocks is what Log.Blocks must equal: every listed block built
// anew, after an empty one in the place of each block the window has left
// since its places last moved.
func freshBlocks(s *model.Session) []string {
	evs := model.EventsOf(s.Engine().Log())
	out := []string{}
	start := model.LogWindowStart(evs.Len())
	for range (start - logPlacesFrom(start)) / model.LogBlock {
		out = append(out, `<ol class="log-block" hidden></ol>`)
	}
	for first := start; first < evs.Len(); first += model.LogBlock {
		out = append(out, logBlockHTML(evs, first, min(first+model.LogBlock, evs.Len()), s.Step()))
	}
	return out
}

func TestTheLogRebuildsOnlyWhatChanged(t *testing.T) {
	s := model.NewSession()
	var c Log
	require.Equal(t, freshBlocks(s), c.Blocks(model.EventsOf(s.Engine().Log()), s.Step()), "the demo run on first render")
	s.Reset()
	assert.Empty(t, c.Blocks(model.EventsOf(s.Engine().Log()), s.Step()), "a new run drops the old blocks")

	sendN(t, s, model.LogBlock/10+2) // 10 events each: past one block, short of two
	before := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	require.Equal(t, freshBlocks(s), before)
	require.Len(t, before, 2)

	sendN(t, s, 1)
	after := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	require.Equal(t, freshBlocks(s), after)
	assert.True(t, sameBytes(before[0], after[0]), "a full block is kept across a Send")
	assert.False(t, sameBytes(before[1], after[1]), "the newest block grows")

	require.NoError(t, s.SelectStep(5))
	sel := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	require.Equal(t, freshBlocks(s), sel, "a selection marks its row")
	assert.True(t, sameBytes(after[1], sel[1]), "a selection elsewhere leaves a block alone")
	require.NoError(t, s.SelectStep(model.LogBlock+5))
	require.Equal(t, freshBlocks(s), c.Blocks(model.EventsOf(s.Engine().Log()), s.Step()), "and moves between blocks")
	require.NoError(t, s.SelectStep(0))
	latest := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	require.Equal(t, freshBlocks(s), latest, "the latest step marks no row")
	assert.Equal(t, 0, strings.Count(strings.Join(latest, ""), `aria-pressed="true"`))

	sendN(t, s, 40) // past model.MaxLogRows: the window moves
	blocks := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	require.Equal(t, freshBlocks(s), blocks)
	evs := s.Engine().Log().Copy()
	require.Greater(t, len(evs), model.MaxLogRows)
	start := model.LogWindowStart(len(evs))
	gaps := (start - logPlacesFrom(start)) / model.LogBlock
	assert.Contains(t, blocks[gaps], `data-step="`+strconv.Itoa(start+1)+`"`, "the first listed block follows the places the window left")
	assert.Contains(t, blocks[len(blocks)-1], `data-step="`+strconv.Itoa(len(evs))+`"`)

	s.Reset()
	assert.Empty(t, c.Blocks(model.EventsOf(s.Engine().Log()), s.Step()))
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
	var c Log
	places := model.MaxLogRows / model.LogBlock
	kept, placesMoved := 0, 0
	prev := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
	for range 150 { // 10 events a Send: five times past the window's length
		sendN(t, s, 1)
		evs := s.Engine().Log().Copy()
		got := c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
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
	evs := model.EventsOf(s.Engine().Log())
	const sendEvents = 10 // one small request's events
	b.Run("blocks", func(b *testing.B) {
		var c Log
		c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
		for b.Loop() {
			// Forget the newest request, as if it had just been sent.
			is := &c.rows
			is.built, is.rows = is.built[:len(is.built)-sendEvents], is.rows[:len(is.rows)-sendEvents]
			is.blocks[len(is.blocks)-1].n -= sendEvents
			c.Blocks(model.EventsOf(s.Engine().Log()), s.Step())
		}
	})
	b.Run("whole-list", func(b *testing.B) {
		for b.Loop() {
			logBlockHTML(evs, model.LogWindowStart(evs.Len()), evs.Len(), 0)
		}
	})
}

func TestLogBlockHTMLEscapesAndMarksTheSelectedStep(t *testing.T) {
	s := model.NewSession()
	s.Reset()
	typeRequest(t, s, "B", "3", "y")
	require.NoError(t, s.SetText(model.TenantName, `<i>x</i>`))
	require.NoError(t, s.Rename())
	require.NoError(t, s.Send())
	evs := model.EventsOf(s.Engine().Log())
	out := logBlockHTML(evs, 0, evs.Len(), 2)
	assert.True(t, strings.HasPrefix(out, `<ol class="log-block" start="1" aria-label="Events 1–`+strconv.Itoa(evs.Len())+`">`), out)
	assert.Equal(t, evs.Len(), strings.Count(out, `<li `))
	assert.NotContains(t, out, "<i>")
	assert.Contains(t, out, "&lt;i&gt;x&lt;/i&gt;")
	assert.Contains(t, out, `data-step="2" aria-pressed="true"`)
	assert.Equal(t, 1, strings.Count(out, `aria-pressed="true"`))
	assert.Equal(t, 1, strings.Count(out, ` selected"`))
	assert.Contains(t, out, `data-stage="decode.prealloc"`)
	assert.Equal(t, []string{out}, LogHTML(model.EventsOf(s.Engine().Log()), 2), "the island writes the same")

	later := logBlockHTML(evs, 3, 5, 0)
	assert.True(t, strings.HasPrefix(later, `<ol class="log-block" start="4" aria-label="Events 4–5">`), later)
	assert.NotContains(t, later, `aria-pressed="true"`)
}
