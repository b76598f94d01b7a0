package sitegen

import (
	"html"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/web"
	"kvleak/web/model"
)

// shippedState is one state as the generated page carries it.
type shippedState struct {
	query, tour string
	regions     []string
	on          map[string]string
}

var (
	regionTag = regexp.MustCompile(`<div data-region="([0-9]+)">`)
	stateTag  = regexp.MustCompile(`<div data-state="([0-9]+)"[^>]*>`)
	dataAttr  = regexp.MustCompile(`data-([a-z-]+)="([^"]*)"`)
)

// readEarly reads the states and their parts back from a generated
// index.html.
func readEarly(t *testing.T, index string) (parts map[string]string, states []shippedState) {
	t.Helper()
	parts = map[string]string{}
	for _, m := range regionTag.FindAllStringSubmatchIndex(index, -1) {
		_, end, err := elementAt(index, m[1])
		require.NoError(t, err)
		parts[index[m[2]:m[3]]] = index[m[1]:end]
	}
	for i, m := range stateTag.FindAllStringSubmatch(index, -1) {
		require.Equal(t, strconv.Itoa(i), m[1], "the states in order")
		st := shippedState{on: map[string]string{}}
		for _, a := range dataAttr.FindAllStringSubmatch(m[0], -1) {
			v := html.UnescapeString(a[2])
			switch a[1] {
			case "query":
				st.query = v
			case "tour":
				st.tour = v
			case "regions":
				st.regions = strings.Fields(v)
			case "on":
				for _, move := range strings.Fields(v) {
					id, to, ok := strings.Cut(move, ":")
					require.True(t, ok, move)
					st.on[id] = to
				}
			}
		}
		states = append(states, st)
	}
	return parts, states
}

// mainOf is the page's main element, #playground, canonical.
func mainOf(t *testing.T, page string) string {
	t.Helper()
	page = canonical(page)
	start, _, end, err := element(page, "playground")
	require.NoError(t, err)
	return page[start:end]
}

// The states the page ships are the engine's rendering, byte for byte
// (with go-app's attributes sorted): for each state, the prerendered page's
// main element with the state's parts put in is the main element go-app's
// prerenderer writes for the state's query. State 0 is the prerendered
// page itself.
func TestTheShippedStatesAreTheEnginesRendering(t *testing.T) {
	wasm, static := fixture(t)
	out := filepath.Join(t.TempDir(), "site")
	require.NoError(t, Generate(Config{Out: out, Wasm: wasm, Static: static, Compress: fast}))
	index := read(t, filepath.Join(out, "index.html"))
	parts, states := readEarly(t, index)
	require.NotEmpty(t, states)
	page := mainOf(t, index)
	h := handler("", "", "test", len(fakeWasm))
	web.Routes()

	for i, st := range states {
		got := page
		for j, r := range st.regions {
			part, ok := parts[r]
			require.True(t, ok, "state %d: part %s is shipped", i, r)
			start, open, end, err := element(got, earlyParts[j])
			require.NoError(t, err)
			if j == 0 { // the main element's start tag
				part, end = strings.TrimSuffix(part, "</main>"), open
			}
			got = got[:start] + part + got[end:]
		}
		want, err := prerender(h, st.query)
		require.NoError(t, err)
		require.Equal(t, mainOf(t, want), got, "state %d, /?%s", i, st.query)
	}
	assert.Len(t, states, 2*len(model.TourCards())+1, "the prerendered page, each card, and each card closed")
}

// The states' moves are the tour's: Take the tour opens card 1 at its
// step, Next and Back go card by card, Next on the last card and Close
// close the tour with the run left at the card's step.
func TestTheEarlyStatesFollowTheTour(t *testing.T) {
	states, err := earlyStates()
	require.NoError(t, err)
	cards := model.TourCards()
	at := func(i int) (tour, step int) {
		s, err := sessionAt(states[i].query)
		require.NoError(t, err)
		return s.View().Tour, s.Current()
	}
	tour, step := at(0)
	assert.Equal(t, [2]int{0, model.NewSession().Current()}, [2]int{tour, step}, "state 0 is the page as prerendered")
	card := states[0].on["take-tour"]
	for n := 1; n <= len(cards); n++ {
		tour, step := at(card)
		require.Equal(t, [2]int{n, cards[n-1].Step}, [2]int{tour, step}, "card %d", n)
		assert.Equal(t, n, states[card].tour)
		closed := states[card].on["tour-close"]
		tour, step = at(closed)
		assert.Equal(t, [2]int{0, cards[n-1].Step}, [2]int{tour, step}, "card %d closed", n)
		assert.Equal(t, states[card].on["take-tour"], states[0].on["take-tour"], "card %d: Take the tour opens card 1", n)
		if n > 1 {
			tour, _ := at(states[card].on["tour-prev"])
			assert.Equal(t, n-1, tour, "Back from card %d", n)
		} else {
			assert.NotContains(t, states[card].on, "tour-prev", "no Back on the first card")
		}
		next := states[card].on["tour-next"]
		if n == len(cards) {
			assert.Equal(t, closed, next, "Finish closes the tour")
		}
		card = next
	}
}

// A state that differs from the prerendered page outside the parts it
// ships fails the build, naming it.
func TestAStateThatDiffersElsewhereFailsTheBuild(t *testing.T) {
	web.Routes()
	h := handler("", "", "test", len(fakeWasm))
	differs := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		page := rec.Body.String()
		if strings.Contains(r.URL.RawQuery, "tour=2") {
			page = strings.Replace(page, "KV-cache leak playground</h1>", "KV-cache leak playground!</h1>", 1)
		}
		w.Write([]byte(page))
	})
	_, err := earlyTemplate(differs)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "tour=2")
	assert.Contains(t, err.Error(), "differs from the prerendered page outside")
}
