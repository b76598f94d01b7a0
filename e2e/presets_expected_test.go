package e2e

import (
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"kvleak/engine"
	"kvleak/web/model"
)

// What the page must show for each preset at each step: the engine's run
// as the model words and draws it (web/model), the views the page renders.
// The browser tests check that the page shows them; the numbers in them
// are the engine's, pinned by its golden tests (engine/testdata/golden,
// web/model/testdata/golden), so a change of the engine moves both.
//
// Pool notation, one token per #grid cell in order, "×N" repeats a token:
//
//	.    free          A+   allocated, mostly tenant A
//	A~   stale (freed, keeps A's KV)
//	A!   a leaked page of A; A!7 a range cell holding 7 leaked pages

const noRequestYet = "No request sent yet."

// stepSpan is what steps From..To (inclusive) of a run show.
type stepSpan struct {
	From, To        int
	Status, Verdict string
	Pool            string
}

// presetWant is one preset's run: its length, what the live region says at
// the latest step, and what its steps show, in spans that show the same.
type presetWant struct {
	Events   int
	Announce string
	Steps    []stepSpan
}

var (
	wantsMu sync.Mutex
	wants   = map[string]presetWant{}
)

// presetWantOf is what the page shows for a preset's run, built once.
func presetWantOf(t testing.TB, slug string) presetWant {
	t.Helper()
	wantsMu.Lock()
	defer wantsMu.Unlock()
	if w, ok := wants[slug]; ok {
		return w
	}
	s := model.NewSession()
	require.NoError(t, s.LoadPreset(slug), "no preset %q", slug)
	w := presetWant{Events: s.Steps(), Announce: s.Response().Announce}
	for step := 1; step <= w.Events; step++ {
		require.NoError(t, s.SelectStep(step))
		sp := shownNow(t, s)
		if n := len(w.Steps); n > 0 && w.Steps[n-1].Status == sp.Status && w.Steps[n-1].Verdict == sp.Verdict && w.Steps[n-1].Pool == sp.Pool {
			w.Steps[n-1].To = step // a span of steps that show the same
			continue
		}
		sp.From, sp.To = step, step
		w.Steps = append(w.Steps, sp)
	}
	wants[slug] = w
	return w
}

// shownNow is the session's response and decode's grid at its step.
func shownNow(t testing.TB, s *model.Session) stepSpan {
	t.Helper()
	r := s.Response()
	g, err := s.Grid(model.MaxGridCells)
	require.NoError(t, err)
	return stepSpan{Status: r.Status, Verdict: r.Verdict, Pool: gridNotation(g)}
}

// gridNotation is a grid in pool notation, as cellTokensJS reads #grid.
func gridNotation(g model.GridView) string {
	sym := map[engine.PageState]string{engine.PageFree: ".", engine.PageAllocated: "+", engine.PageStale: "~", engine.PageLeaked: "!"}
	tokens := make([]string, len(g.Cells))
	for i, c := range g.Cells {
		tok := c.Owner + sym[c.State]
		if c.State == engine.PageLeaked && c.First != c.Last && c.Leaked != 1 {
			tok += strconv.Itoa(c.Leaked)
		}
		tokens[i] = tok
	}
	return poolNotation(tokens)
}

// The demo side by side: each door's last response.
const (
	demoDifference      = "vulnerable: 200 + 7 leaked pages; fixed: 400, nothing allocated"
	demoVulnerableFinal = demoLeakVerdict
	demoFixedFinal      = "Rejected with 400 before any page was allocated"
)

// lateWriteVerdict is tenant C's response in the late-write preset.
func lateWriteVerdict(t testing.TB) string {
	w := presetWantOf(t, "late-write")
	return w.Steps[len(w.Steps)-1].Verdict
}

// glmLaunchThenA1000 is glm-launch, then tenant A sends 1,000 tokens
// (TestRealScalePreset), at the latest step.
func glmLaunchThenA1000(t testing.TB) stepSpan {
	t.Helper()
	s := model.NewSession()
	require.NoError(t, s.LoadPreset("glm-launch"))
	require.NoError(t, s.SelectTenant("A"))
	require.NoError(t, s.SetText(model.PromptTokens, "1000"))
	require.NoError(t, s.Send())
	return shownNow(t, s)
}
