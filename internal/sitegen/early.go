package sitegen

import (
	_ "embed"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"kvleak/web/model"
	"kvleak/web/tour"
)

// The page before the engine runs. On a phone the wasm takes seconds to
// arrive; until it does, early.js (inline in the head) answers the tour
// from states of the page the engine rendered here, at build time, and
// keeps every other tap for the app. A state is a query the app reads
// (OnNav) and writes (its address bar): the early script shows it and puts
// it in the address bar, so the app, when it takes over, opens the same
// state. Each state ships the parts of the page that differ from the
// prerendered one (earlyParts), rendered by go-app's prerenderer for that
// query; the build fails if a state differs anywhere else.

//go:embed early.js
var earlyJS string

// earlyScript is the head's inline script that answers the page before the
// engine runs, without its comment lines and indentation, which every
// first visit would download; writeScriptHashes allows it.
func earlyScript() string {
	var b strings.Builder
	for line := range strings.Lines(earlyJS) {
		if line = strings.TrimLeft(line, " "); !strings.HasPrefix(line, "//") {
			b.WriteString(line)
		}
	}
	return "<script>" + b.String() + "</script>"
}

// earlyParts are the ids of the parts of the page that follow the state:
// of the page's main element only its attributes (the tour's outline,
// data-tour-spot), of the others the whole element.
var earlyParts = []string{"playground", "col-run", "tour-slot", "send-result", "log-panel"}

// earlyControl is a control the early script answers, and what the page
// does when it is used (web/actions.go, web/tour/tour.go), which reports
// whether the control is there and acts in that state.
type earlyControl struct {
	id     string
	change func(s *model.Session) bool
}

var earlyControls = []earlyControl{
	{"take-tour", func(s *model.Session) bool { return s.TourTo(1) == nil }},
	{"tour-next", func(s *model.Session) bool {
		switch n := s.View().Tour; {
		case n == 0:
			return false
		case n == len(model.TourCards()): // Finish
			s.CloseTour()
			return true
		default:
			return s.TourTo(n+1) == nil
		}
	}},
	{"tour-prev", func(s *model.Session) bool { n := s.View().Tour; return n > 1 && s.TourTo(n-1) == nil }},
	{"tour-close", func(s *model.Session) bool {
		open := s.View().Tour > 0
		s.CloseTour()
		return open
	}},
}

// earlyState is one state the early script can show: the query the app
// reads it from, the tour's card (0 closed) and, by control, the state the
// control leads to.
type earlyState struct {
	query string
	tour  int
	on    map[string]int
}

// earlyStates walks the states the early controls reach from the page as
// prerendered (state 0), each found by the session the app keeps.
func earlyStates() ([]earlyState, error) {
	var states []earlyState
	index := map[string]int{}
	add := func(s *model.Session) int {
		q := s.AddressQuery()
		if i, ok := index[q]; ok {
			return i
		}
		index[q] = len(states)
		states = append(states, earlyState{query: q, tour: s.View().Tour, on: map[string]int{}})
		return len(states) - 1
	}
	add(model.NewSession())
	for i := 0; i < len(states); i++ {
		for _, c := range earlyControls {
			s, err := sessionAt(states[i].query)
			if err != nil {
				return nil, err
			}
			if c.change(s) {
				to := add(s)
				states[i].on[c.id] = to
			}
		}
	}
	return states, nil
}

// sessionAt is the session the app opens at a state's query (web/nav.go's
// OnNav for a link that opens).
func sessionAt(query string) (*model.Session, error) {
	s := model.NewSession()
	st, err := model.DecodeLink(query)
	if err != nil {
		return nil, fmt.Errorf("early state %q: %w", query, err)
	}
	if err := s.ApplyLink(st); err != nil {
		return nil, fmt.Errorf("early state %q: %w", query, err)
	}
	if n := st.View.Tour; n > 0 {
		if err := s.TourTo(n); err != nil {
			return nil, fmt.Errorf("early state %q: %w", query, err)
		}
	}
	return s, nil
}

// prerender is the page go-app's prerenderer writes for "/?query", canonical.
func prerender(h http.Handler, query string) (string, error) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?"+query, nil))
	if rec.Code != http.StatusOK {
		return "", fmt.Errorf("prerendering /?%s: status %d", query, rec.Code)
	}
	return canonical(rec.Body.String()), nil
}

// splitParts cuts a canonical page into its early parts (the main
// element's start tag, the other parts whole) and the rest, in which each
// part is a placeholder.
func splitParts(page string) (parts []string, rest string, err error) {
	rest = page
	for _, id := range earlyParts {
		start, open, end, err := element(rest, id)
		if err != nil {
			return nil, "", err
		}
		if id == "playground" {
			parts = append(parts, rest[start:open]+"</main>")
			end = open
		} else {
			parts = append(parts, rest[start:end])
		}
		rest = rest[:start] + "\x00" + id + "\x00" + rest[end:]
	}
	return parts, rest, nil
}

// earlyTemplate is the page's #early-states: every state's parts, each
// distinct part once, and the states, rendered with h. It fails if a state
// differs from the prerendered page outside its parts.
func earlyTemplate(h http.Handler) (string, error) {
	states, err := earlyStates()
	if err != nil {
		return "", err
	}
	page, err := prerender(h, "")
	if err != nil {
		return "", err
	}
	_, pageRest, err := splitParts(page)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(`<template id="early-states" data-parts="` + strings.Join(earlyParts, " ") + `" data-narrow="` + html.EscapeString(tour.NarrowLayout) + `">`)
	regions := map[string]int{}
	for i, st := range states {
		got, err := prerender(h, st.query)
		if err != nil {
			return "", err
		}
		parts, rest, err := splitParts(got)
		if err != nil {
			return "", fmt.Errorf("early state %q: %w", st.query, err)
		}
		if rest != pageRest {
			return "", fmt.Errorf("early state %q differs from the prerendered page outside %v: ship that part too (earlyParts)", st.query, earlyParts)
		}
		var refs []string
		for _, p := range parts {
			k, ok := regions[p]
			if !ok {
				k = len(regions)
				regions[p] = k
				b.WriteString(`<div data-region="` + strconv.Itoa(k) + `">` + p + `</div>`)
			}
			refs = append(refs, strconv.Itoa(k))
		}
		b.WriteString(stateMarkup(i, st, refs))
	}
	b.WriteString(`</template>`)
	return b.String(), nil
}

// stateMarkup is one state's element: its query, its parts (none for the
// prerendered page, state 0, whose own parts the script keeps), its card's
// spot and its controls' moves.
func stateMarkup(i int, st earlyState, refs []string) string {
	attr := func(name, v string) string { return ` data-` + name + `="` + html.EscapeString(v) + `"` }
	s := `<div` + attr("state", strconv.Itoa(i)) + attr("query", st.query)
	if i > 0 {
		s += attr("regions", strings.Join(refs, " "))
	}
	if st.tour > 0 {
		wide, narrow := tour.SpotSelectors(model.TourCards()[st.tour-1].Spot)
		s += attr("tour", strconv.Itoa(st.tour)) + attr("spot", wide) + attr("spot-narrow", narrow)
	}
	var on []string
	for _, c := range earlyControls { // in a fixed order
		if to, ok := st.on[c.id]; ok {
			on = append(on, c.id+":"+strconv.Itoa(to))
		}
	}
	return s + attr("on", strings.Join(on, " ")) + `></div>`
}

// addEarlyStates puts the early states into index.html, before </body>.
func addEarlyStates(dir string, h http.Handler) error {
	tmpl, err := earlyTemplate(h)
	if err != nil {
		return fmt.Errorf("early states: %w", err)
	}
	return editPages(dir, func(page []byte) ([]byte, error) {
		s := string(page)
		if strings.Count(s, "</body>") != 1 {
			return nil, errors.New("no single </body> for the early states")
		}
		return []byte(strings.Replace(s, "</body>", tmpl+"\n</body>", 1)), nil
	})
}
