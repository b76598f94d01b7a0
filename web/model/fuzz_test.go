package model

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/challenge"
	"kvleak/engine"
	"kvleak/internal/jsonlite"
)

// FuzzSession plays random sequences of what a visitor can do to a session
// — type any text into any field, pick presets, send, cancel, settle,
// step, play, zoom, import, open a link — and checks after every step
// that nothing panicked and that the views agree with each other and with
// the link the address bar would hold.
//
// The input is read a byte at a time (visitor.next): an action byte, then
// the action's arguments. Texts come from fuzzTexts or, past its end,
// from the input itself, so that the fuzzer reaches any text.
func FuzzSession(f *testing.F) {
	glm, symmetric := presetByte("glm-launch"), presetByte("symmetric")
	for _, seed := range [][]byte{
		{},
		{actSend, 0},                             // send the demo's request again
		{actReset, 0, actPlay, actStep, 1},       // Play before any request (a crash once)
		{actPreset, glm, actSend, 0, actStep, 0}, // GLM at launch, at real scale
		{actNumber, 1, 10, actSend, 0},           // a prefill pool of 1Mi
		{actNumber, 2, 10, actSend, 0},           // a decode pool of 1Mi
		{actNumber, 2, 26, actSend, 0, actNumber, 1, 9},                                                     // decode's pool below prefill's, then prefill's at launch size
		{actPreset, symmetric, actSend, 0, actStep, 3},                                                      // both servers reject B
		{actChoice, 0, 1, actSend, 0, actLink},                                                              // the fixed door, then the link
		{actEnd, 3, actSend, 0, actSettle, 3, 1},                                                            // cancel mid-flight, settle it
		{actImport, 0, actImport, 1, actZoom, 2},                                                            // a good file, a bad one
		{actImport, byte(len(engine.Presets())), 0},                                                         // a file of version 2, made with one pool
		{actLink, 27, actStep, 0, actLink, 28, actLink, 29, actLink, 30},                                    // links of versions 1 to 3
		{actPreset, 5, actNumber, 0, 200, 'x', 1},                                                           // a text from the input
		{actTour, 3, actChoice, 0, 1, actTour, 9, actFit, actTour, 5},                                       // the tour, its fixes, closed
		{actView, 0xff, 40, actPreset, glm, actView, 0x8a},                                                  // views, a scrub at real scale
		{actPreset, glm, actDrag, 2, 19, 37, 1, actSend, 0},                                                 // a drag at real scale
		{actChallenge, 4, actTenant, 1, 19, actNumber, 4, 26, actSend, 0, actChallenge, 3, actChallenge, 1}, // challenge 1, tried and scored
		{actChallenge, 24, actSend, 0, actChallenge, 2 + 4*2, actChallenge, 3, actChallenge, 0},             // challenge 6, answered
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewSession()
		v := &visitor{b: data}
		for i, work := 0, 0; i < maxFuzzActions && work < maxFuzzPages && v.more(); i++ {
			v.act(t, s)
			checkSession(t, s)
			work += s.Config().PagesOf(engine.ServerPrefill) + s.Config().PagesOf(engine.ServerDecode)
		}
		checkLinkReopens(t, s)
		checkJSONIsEncodingJSONs(t, s)
	})
}

// An input plays at most maxFuzzActions actions, and stops sooner once the
// pools it checked add up to maxFuzzPages pages: checkSession passes over
// both pools a few times, and at launch scale (1,729,856 pages) 48 actions
// took longer than the 10 s the fuzzer gives an input.
const (
	maxFuzzActions = 48
	maxFuzzPages   = 32 << 20
)

// The visitor's actions.
const (
	actNumber = iota
	actChoice
	actFlag
	actText
	actPreset
	actTenant
	actEnd
	actSend
	actSettle
	actStep
	actPlay
	actZoom
	actImport
	actLink
	actReset
	actTour
	actView
	actFit
	actChallenge
	actDrag
	actCount
)

// fuzzTexts are the texts a visitor types, good and bad; fuzzTexts[i] for
// an argument byte i, else the input's next bytes.
var fuzzTexts = []string{
	"", "0", "1", "8", "12", "16", "-5", "abc", "2.04M", "681,280", "1Mi", "1,048,576",
	"99999999999999999999", "5000000", "1e9", "7", "\x00", "<img src=x onerror=alert(1)>",
	"A", "B", "Acme Corp", strings.Repeat("x", 300), "681,273", "681,274",
	"125", "144", "112", // B's prompt, the demo's decode pool, one below prefill's
	// Links of each version: the demo as versions 1 and 2 wrote it, the
	// symmetric pools, and slot where version 3 refuses it.
	"v=1&ctx=16&pool=8&page=1&slot=8&mode=vulnerable&cancel=both&scrub=0&op=s,A,8,-,x&op=s,B,12,-,y",
	"v=2&preset=demo&ctx=256&pool=128&page=16&slot=8&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,x&op=s,B,200,-,y&step=9",
	"v=3&ctx=256&pool=128&dpool=128&page=16&mode=vulnerable&alloc=sorted&cancel=both&scrub=0&op=s,A,120,-,x&op=s,B,125,-,y",
	"v=3&ctx=256&pool=128&dpool=144&page=16&slot=8",
}

// presetByte is the argument byte that picks a preset.
func presetByte(slug string) byte {
	for i, p := range engine.Presets() {
		if p.Slug == slug {
			return byte(i)
		}
	}
	panic("no preset " + slug)
}

type visitor struct{ b []byte }

func (v *visitor) more() bool { return len(v.b) > 0 }

func (v *visitor) next() int {
	if len(v.b) == 0 {
		return 0
	}
	c := v.b[0]
	v.b = v.b[1:]
	return int(c)
}

// text is a text argument: a listed one, or up to 64 of the input's bytes.
func (v *visitor) text() string {
	i := v.next()
	if i < len(fuzzTexts) {
		return fuzzTexts[i]
	}
	n := min(i-len(fuzzTexts), 64, len(v.b))
	s := string(v.b[:n])
	v.b = v.b[n:]
	return s
}

// act performs one action. Errors are the session refusing bad input,
// which it must do without changing the run (checked by checkSession's
// invariants and by TestBadNumbersChangeNothing): they are ignored here.
func (v *visitor) act(t *testing.T, s *Session) {
	switch v.next() % actCount {
	case actNumber:
		f := []Field{Context, Pool, DecodePool, PageSize, PromptTokens}[v.next()%5]
		_ = s.SetNumber(f, v.text())
	case actChoice:
		f := []Field{Mode, Cancel}[v.next()%2]
		opts := f.Options()
		if i := v.next(); i < len(opts) {
			_ = s.SetChoice(f, opts[i].Value)
		} else {
			_ = s.SetChoice(f, v.text())
		}
	case actFlag:
		_ = s.SetScrub(v.next()%2 == 1)
	case actText:
		f := []Field{PromptTokens, Secret, TenantName, MaxNew}[v.next()%4]
		_ = s.SetText(f, v.text())
		if f == TenantName {
			_ = s.Rename()
		}
	case actPreset:
		presets := engine.Presets()
		_ = s.LoadPreset(presets[v.next()%len(presets)].Slug)
	case actTenant:
		if v.next()%2 == 0 {
			_ = s.AddTenant()
		} else {
			_ = s.SelectTenant(v.text())
		}
	case actEnd:
		opts := EndOptions()
		_ = s.SetEnd(opts[v.next()%len(opts)].Value)
	case actSend:
		_ = s.Send()
	case actSettle:
		_ = s.Settle(v.next()%4, engine.Outcomes[v.next()%len(engine.Outcomes)])
	case actStep:
		if d := v.next(); d%3 == 0 {
			_ = s.SelectStep(d / 3)
		} else {
			s.StepBy([]int{-1, 1}[d%2])
		}
	case actPlay:
		if s.Play() {
			for s.Tick() {
			}
		}
	case actZoom:
		if v.next()%2 == 0 {
			s.ZoomOut()
		} else {
			_ = s.Zoom(v.next(), v.next()+v.next())
		}
	case actImport:
		_ = s.ImportRun(v.runFile(t))
	case actLink:
		if st, err := DecodeLink(v.text()); err == nil {
			_ = s.ApplyLink(st)
		}
	case actReset:
		s.Reset()
	case actTour:
		if n := v.next(); n%5 == 0 {
			s.CloseTour()
		} else {
			_ = s.TourTo(n % 10)
		}
	case actView:
		b := v.next()
		s.SetView(View{Compare: b&1 != 0, Embed: b&2 != 0, ReadOnly: b&4 != 0, Panel: append([]string{""}, Panels...)[int(b>>3)%5],
			Theme: []string{"", "light", "dark"}[int(b>>6)%3]})
		if b&128 != 0 {
			_ = s.ScrubTo(v.next())
		}
	case actFit:
		_ = s.FitLastPrompt()
	case actDrag:
		// A drag of the timeline: a few moves with the grid's names and
		// outline held, then its end (the slider's change).
		s.HoldNames(true)
		for range 1 + v.next()%3 {
			_ = s.ScrubTo(v.next())
			checkDrag(t, s)
		}
		s.HoldNames(false)
	case actChallenge:
		switch n := v.next(); n % 4 {
		case 0:
			_ = s.ChallengeAction(ChallengeOpen, strconv.Itoa(n/4%(len(challenge.Ladder())+2)))
		case 1:
			_ = s.ChallengeAction([]string{ChallengeClose, ChallengeRestart, "x"}[n/4%3], "")
		case 2:
			_ = s.ChallengeAction(ChallengeAnswer, []string{"", "can", "cannot", "maybe"}[n/4%4])
		default:
			if s.ScoreChallenge() {
				p, err := ParseProgress(s.Progress().Encode())
				require.NoError(t, err)
				require.Equal(t, s.Progress().Encode(), p.Encode(), "the progress kept reads back the same")
			}
		}
	}
}

// legacyRunFile is the demo as run file version 2 wrote it, with one pool.
var legacyRunFile = sync.OnceValues(func() ([]byte, error) { return os.ReadFile("testdata/demo-v2.json") })

// runFile is an exported run (a preset's, or the file of version 2), or a
// broken one.
func (v *visitor) runFile(t *testing.T) []byte {
	presets := engine.Presets()
	var data []byte
	if i := v.next() % (len(presets) + 1); i < len(presets) {
		p := presets[i]
		e, err := engine.Replay(p.Config, p.Ops)
		require.NoError(t, err)
		data, err = json.Marshal(e.Export(p.Ops))
		require.NoError(t, err)
	} else {
		var err error
		data, err = legacyRunFile()
		require.NoError(t, err)
	}
	if cut := v.next(); cut > 0 {
		return data[:min(cut, len(data))] // truncated: not JSON
	}
	return data
}

// checkDrag asserts what a drag shows: every grid cell in its state at
// the step, none outlined (Session.HoldNames).
func checkDrag(t *testing.T, s *Session) {
	t.Helper()
	kept, err := s.Grid(MaxGridCells)
	if err != nil {
		return
	}
	fresh, err := BuildGrid(s.Snapshot(), s.tenants, s.zoomFirst, s.zoomLast, s.gridMarks(), MaxGridCells)
	require.NoError(t, err)
	require.Len(t, kept.Cells, len(fresh.Cells))
	for i, c := range kept.Cells {
		require.False(t, c.Touched, "cell %d outlined in a drag", i)
		require.Equal(t, fresh.Cells[i].State, c.State, "cell %d: its state is the step's", i)
		require.Equal(t, fresh.Cells[i].Owner, c.Owner, "cell %d: its owner is the step's", i)
	}
	for _, c := range s.PrefillPool().Grid.Cells {
		require.False(t, c.Touched, "a prefill cell outlined in a drag")
	}
}

// checkSession asserts what must hold after any action.
func checkSession(t *testing.T, s *Session) {
	t.Helper()
	cfg := s.Config()
	require.NoError(t, cfg.Validate(), "the session only ever runs a valid configuration")
	require.LessOrEqual(t, len(s.Ops()), engine.MaxRequests+len(s.Ops())/2, "operations stay bounded")
	require.LessOrEqual(t, s.Current(), s.Steps())
	if s.Step() != 0 {
		require.False(t, s.Step() < 0 || s.Step() > s.Steps(), "step %d of %d", s.Step(), s.Steps())
	}

	// Every view the page renders can be built, whatever came before.
	pipe := s.Pipeline()
	require.True(t, pipe.PrefillIntake == "" || strings.HasPrefix(pipe.PrefillIntake, "prefill: "), pipe.PrefillIntake)
	require.True(t, pipe.DecodeIntake == "" || strings.HasPrefix(pipe.DecodeIntake, "decode: "), pipe.DecodeIntake)
	if pipe.PrefillIntake != "" {
		require.NotEqual(t, "not started", pipe.Prefill, "prefill's verdict shows once its intake ran")
	}
	if pipe.DecodeIntake != "" {
		require.NotEqual(t, "not started", pipe.Decode, "decode's verdict shows once its intake ran")
	}
	prefill := s.PrefillPool()
	require.Equal(t, s.prefillPool(), drawnWhole(prefill), "the prefill pool's kept view is the one built afresh")
	require.Empty(t, prefill.Err)
	leakedOnPrefill := 0
	for _, c := range prefill.Grid.Cells {
		if c.State == engine.PageLeaked {
			leakedOnPrefill++
		}
	}
	for _, b := range prefill.Map.Map {
		if b&engine.MapStateMask == engine.MapLeaked {
			leakedOnPrefill++
		}
	}
	require.Zero(t, leakedOnPrefill, "prefill reads no page it did not write")
	require.Equal(t, timelineAfresh(s.eng), s.Timeline(), "the scrubber's marks, extended Send by Send, are the ones built afresh")
	require.Equal(t, PlaceMarks(timelineAfresh(s.eng), s.Steps()), s.ScrubMarks(), "the marks placed, kept between changes, are the ones placed afresh")
	tab, err := s.TabRun()
	require.NoError(t, err)
	want, err := json.Marshal(s.Link())
	require.NoError(t, err)
	require.Equal(t, string(want), string(tab), "the run kept in the tab, its operations encoded as they came, is encoding/json's")
	_ = s.PoolPanel(MaxGridCellsNarrow)
	_ = s.Tour()
	cv, list := s.Challenge(), s.Challenges()
	require.Equal(t, s.View().Challenge > 0, cv.Open)
	require.Equal(t, list.Solved, s.Progress().SolvedCount())
	if c, err := challenge.Get(cv.N); cv.Open && err == nil {
		require.Equal(t, c.Check(s.eng, s.chal.answer), s.challengeVerdict(c), "the kept verdict is the one found afresh")
		require.True(t, !cv.RunSolves || cv.Solved)
	}
	_ = s.Request()
	require.Equal(t, s.settingsAfresh(), s.Settings(), "the settings' views are the ones built afresh")
	require.Equal(t, s.presetsAfresh(), s.Presets(), "the scenario picker's view is the one built afresh")
	_ = s.Lingering()
	// The counters' views, kept while the counters are the same, are the
	// ones built afresh.
	capacity := s.cfg.Capacity()
	require.Equal(t, MetricsView{Capacity: "Capacity check: " + capacity.String(), Short: capacity.Window.Open(),
		Rows: metricRows(s.eng.Metrics())}, s.Metrics(), "the metrics panel is the one built afresh")
	require.Equal(t, prometheusText(s.eng.Metrics()), s.Prometheus(), "the Prometheus text is the one built afresh")

	r, ok := s.LastResponse()
	view := s.Response()
	require.Equal(t, ok, view.Sent)
	// The views kept up to date from step to step are the ones built afresh.
	pages := cfg.PagesOf(engine.ServerDecode)
	var whole *GridView // the whole pool, its cells' states and leaks (the marks aside)
	if kept, err := s.Grid(MaxGridCells); err == nil {
		fresh, err := BuildGrid(s.Snapshot(), s.tenants, s.zoomFirst, s.zoomLast, s.gridMarks(), MaxGridCells)
		require.NoError(t, err)
		require.Equal(t, fresh, kept, "the session's grid is the grid built afresh")
		if s.zoomFirst == 0 && s.zoomLast == pages-1 {
			whole = &fresh // at launch scale a grid is a pass over a million pages: one is enough
		}
	}
	if pm := s.PoolMap(); pm.Show {
		require.Equal(t, s.Snapshot().PageMap(nil), pm.Map, "the pool map is the page map drawn afresh")
	}
	if whole == nil {
		g, err := BuildGrid(s.Snapshot(), s.Tenants(), 0, pages-1, GridMarks{}, MaxGridCells)
		require.NoError(t, err)
		whole = &g
	}
	leaked := 0
	for _, c := range whole.Cells {
		if c.First == c.Last && c.State == engine.PageLeaked {
			leaked++
		} else {
			leaked += c.Leaked
		}
	}
	if !ok {
		require.Zero(t, leaked, "no response, no leak")
		return
	}
	require.Equal(t, r.LeakedPages.Len(), leaked, "the grid marks exactly the response's leaked pages")
	blocked := r.Gateway == "block" // decode read them; the gateway answered 502 instead
	require.Equal(t, r.Leaked() && !blocked, strings.HasPrefix(view.Verdict, "LEAK"), "the verdict says leak iff pages leaked to the client: %q", view.Verdict)
	require.Equal(t, r.Leaked() && blocked, strings.HasPrefix(view.Verdict, "BLOCKED"), "the verdict says blocked iff the gateway stopped a leak: %q", view.Verdict)
	require.Equal(t, r.Leaked(), view.Tone == "leak")
	if r.Status == 400 {
		require.Zero(t, r.LeakedPages.Len(), "a 400 carries no page")
	}
	if s.Step() == 0 {
		m := s.Engine().Metrics()
		if r.Leaked() {
			require.GreaterOrEqual(t, m.LeakedResponses, 1, "the counters saw the leak")
			require.GreaterOrEqual(t, m.LeakedPages, r.LeakedPages.Len())
		}
	}
}

// checkJSONIsEncodingJSONs asserts that the run file and the run kept in
// the tab, which the wasm writes with jsonlite, are what encoding/json
// writes, and read back the same.
func checkJSONIsEncodingJSONs(t *testing.T, s *Session) {
	t.Helper()
	run := s.Engine().Export(s.Ops())
	want, err := json.MarshalIndent(run, "", "  ")
	require.NoError(t, err)
	got, err := jsonlite.MarshalIndent(run, "", "  ")
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "the export")

	want, err = json.Marshal(s.Link())
	require.NoError(t, err)
	got, err = s.TabRun()
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "the run kept in the tab")
	var a, b tabRun
	require.NoError(t, json.Unmarshal(got, &a))
	require.NoError(t, jsonlite.Unmarshal(got, &b))
	require.Equal(t, a, b)
}

// checkLinkReopens asserts that the address bar's link, or for a run too
// long for one the run kept in the tab, reopens the state on screen.
func checkLinkReopens(t *testing.T, s *Session) {
	t.Helper()
	again := NewSession()
	if s.Linkable() {
		st, err := DecodeLink(s.AddressQuery())
		require.NoError(t, err, "the session wrote a link it cannot read")
		require.NoError(t, again.ApplyLink(st))
	} else { // kept in the tab instead
		data, err := s.TabRun()
		require.NoError(t, err)
		require.NoError(t, again.RestoreTabRun(data))
	}
	assert.Equal(t, s.Config(), again.Config())
	assert.Equal(t, s.Ops(), again.Ops())
	assert.Equal(t, s.Step(), again.Step())
	assert.Equal(t, s.View(), again.View())
	assert.Equal(t, s.Response(), again.Response())
}
