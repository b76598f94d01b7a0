package model

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"kvleak/engine"
)

// TourCard is one card of the guided tour: a short text that follows the
// article's argument, the step of the demo's run it shows, and the part of
// the page it talks about.
type TourCard struct {
	Title, Text string
	Step        int          // the demo's log step the card selects
	Stage       engine.Stage // the pipeline stage it points at
	Spot        string       // the part of the page it highlights (the Spot… constants)
	Fix         bool         // the last card: the fixes, then the controls
}

// The parts of the page a card highlights. The page outlines each and
// scrolls it into view beside or above the card: on a phone a smaller part
// (decode's grid rather than the pools) than on a wide screen.
const (
	SpotPool     = "pool"     // the pools
	SpotIntake   = "intake"   // each server's intake verdict
	SpotDoor     = "door"     // what the door checked and ignored
	SpotResponse = "response" // the response: status, verdict, body
	SpotVerdict  = "verdict"  // the response's verdict
)

// demoFacts are the demo's sizes the tour's texts quote, from its run.
type demoFacts struct {
	PromptA, PromptB, Context, PrefillLimit, DecodeLimit string
	PagesA, PagesB, Own, Foreign, Empty                  string
}

// tourScript is the tour's argument, each card pinned to the demo's event
// it talks about (request, stage; the last such event): its step is looked
// up in the run.
var tourScript = []struct {
	title   string
	text    func(d demoFacts) string
	request int
	stage   engine.Stage
	spot    string
}{
	{"Tenant A's request fills its pages", func(d demoFacts) string {
		return "Tenant A sends a " + d.PromptA + "-token prompt with a secret; both servers admit it. Decode reserves " + d.PagesA + " pages for it and prefill's send_kv_chunk writes A's KV into them."
	}, 1, engine.StagePrefillTransfer, SpotPool},
	{"free() keeps the KV", func(d demoFacts) string {
		return "A is answered and decode frees its pages. free() only moves the page ids back: every page still holds A's KV — stale, not cleared."
	}, 1, engine.StageRelease, SpotPool},
	{"Prefill rejects B; decode admits it", func(d demoFacts) string {
		return "Tenant B sends " + d.PromptB + " tokens: under the " + d.Context + "-token context, so the API lets it in. Each server checks it against its own pool. Prefill's max_req_input_len is " + d.PrefillLimit +
			": it swaps the prompt for one placeholder token and sets to_finish = FINISH_ABORT(400) — pending, finished() still false. Decode's pool is larger (" + d.DecodeLimit + "): it admits the prompt as it is."
	}, 2, engine.StageIntake, SpotIntake},
	{"The door checks only finished()", func(d demoFacts) string {
		return "The admission door asks req.finished() — false — and admits B. The pending 400 in prefill's to_finish is never looked at."
	}, 2, engine.StageAdmission, SpotDoor},
	{"Decode reserves the prompt; prefill sends one token", func(d demoFacts) string {
		return "Decode reserved " + d.PagesB + " pages for the " + d.PromptB + " tokens it admitted and set kv_committed_len to " + d.PromptB + ". Prefill writes its one placeholder token into position 0 of the first page; everything else still holds A's KV."
	}, 2, engine.StagePrefillTransfer, SpotPool},
	{"Decode attends over the whole prompt", func(d demoFacts) string {
		return "kv_committed_len is what decode reserved, not what prefill wrote: decode attends over " + d.PromptB + " positions — " + d.Own + " of B's, " + d.Foreign + " of A's stale KV, " + d.Empty + " never written."
	}, 2, engine.StageDecodeRunning, SpotPool},
	{"HTTP 200 with A's pages", func(d demoFacts) string {
		return "B gets HTTP 200 and a body made of A's secret. Nothing failed that a status check would see."
	}, 2, engine.StageResponse, SpotResponse},
	{"The fix — and the controls are yours", func(d demoFacts) string {
		return "Cloudflare's patch, as the article tells it, retires a pending rejection at the door: flip the door and the same request gets its 400 with nothing allocated. SGLang as merged (#36988 with #38935) is per server: decode, which admitted B, still reserves its pages, waits for KV that never comes and answers 500 — which status B sees depends on the router (SGLang's mini_lb returns decode's). Or raise prefill's pool until B's prompt fits it: B's prompt leaves the window between the servers. Then close the tour and try your own."
	}, 2, engine.StageRelease, SpotVerdict},
}

// TourCards are the tour's cards on the demo's run. The steps and the
// sizes the texts quote come from the run itself.
var TourCards = sync.OnceValue(func() []TourCard {
	p, _ := engine.PresetBySlug("demo")
	e, err := engine.Replay(p.Config, p.Ops)
	if err != nil || len(p.Ops) < 2 {
		panic(fmt.Sprintf("the demo does not replay: %v", err)) // the engine's tests forbid it
	}
	th := func(n int) string { return engine.Thousands(int64(n)) }
	a, _ := e.Response(1)
	b, _ := e.Response(2)
	d := demoFacts{PromptA: th(a.Tokens), PromptB: th(b.Tokens), Context: th(p.Config.ContextTokens),
		PrefillLimit: th(p.Config.LimitsOf(engine.ServerPrefill).MaxReqInputLen()), DecodeLimit: th(p.Config.LimitsOf(engine.ServerDecode).MaxReqInputLen()),
		PagesA: th(a.Allocated), PagesB: th(b.Allocated), Own: th(b.OwnTokens), Foreign: th(b.ForeignTokens), Empty: th(b.EmptyTokens)}
	cards := make([]TourCard, len(tourScript))
	for i, c := range tourScript {
		cards[i] = TourCard{Title: c.title, Text: c.text(d), Stage: c.stage, Spot: c.spot, Fix: i == len(tourScript)-1}
		for j, evs := 0, e.Log(); j < evs.Len(); j++ {
			if ev := evs.At(j); ev.Request == c.request && ev.Stage == c.stage && ev.Victim == 0 {
				cards[i].Step = ev.Step
			}
		}
	}
	return cards
})

// TourView is the open tour's card, for the component that shows it.
type TourView struct {
	Open  bool
	N, Of int
	Card  TourCard
	// Step and Steps are the step on screen and the run's length, read as
	// the stepper reads them, so that the card and the stepper agree.
	Step, Steps int
	// Changed: the run is no longer the demo's (the reader changed it, or
	// tried the last card's fix); moving to another card puts it back.
	Changed bool
	// Away: on the demo's run, the reader stepped off the card's step.
	Away bool
	// Reset says what opening this card undid of the reader's run, "" if
	// nothing.
	Reset string
}

// Tour is the tour's view: its card, or closed.
func (s *Session) Tour() TourView {
	n := s.view.Tour
	cards := TourCards()
	if n < 1 || n > len(cards) {
		return TourView{}
	}
	v := TourView{Open: true, N: n, Of: len(cards), Card: cards[n-1], Step: s.Current(), Steps: s.Steps(), Changed: s.preset != "demo"}
	// What the card undid is said while the run is still the demo it put back.
	if !v.Changed {
		v.Away, v.Reset = v.Step != v.Card.Step, s.tourReset
	}
	return v
}

// TourTo shows card n of the tour (1-based) on the demo's run, at the
// card's step; the run becomes the demo again if the reader changed it,
// and the card says what that undid.
func (s *Session) TourTo(n int) error {
	cards := TourCards()
	if n < 1 || n > len(cards) {
		return fmt.Errorf("the tour has cards 1 to %d", len(cards))
	}
	reset := ""
	if s.preset != "demo" {
		cfg, ops := s.cfg, s.ops
		if err := s.LoadPreset("demo"); err != nil {
			return err
		}
		reset = undone(cfg, ops, s.cfg, s.ops)
	}
	s.view.Tour, s.view.Challenge, s.tourReset = n, 0, reset // the tour's demo is no challenge's run
	return s.SelectStep(cards[n-1].Step)
}

// undone says what putting the demo (cfg, ops) back over the reader's run
// (was, wasOps) undid: each setting that differed, and the requests.
func undone(was engine.Config, wasOps []engine.Op, cfg engine.Config, ops []engine.Op) string {
	var parts []string
	for _, f := range Settings {
		// A door that follows the mode is said with the mode.
		if f.value(was) != f.value(cfg) {
			label := f.Label()
			parts = append(parts, strings.ToLower(label[:1])+label[1:]+" "+settingWords(f, was)+" → "+settingWords(f, cfg))
		}
	}
	if !slices.EqualFunc(wasOps, ops, opsEqual) {
		parts = append(parts, fmt.Sprintf("your %d %s → the demo's %d", len(wasOps), plural(len(wasOps), "request", "requests"), len(ops)))
	}
	what := "."
	if len(parts) > 0 {
		what = ": " + strings.Join(parts, "; ") + "."
	}
	return "The tour runs on the article's demo, so it put the demo back" + what
}

// settingWords is a setting's value as the page says it: the door's set in
// words, a number with its thousands.
func settingWords(f Field, c engine.Config) string {
	if f == Door {
		return "“" + retiredWords(c.Retires()) + "”"
	}
	return f.display(c)
}

func opsEqual(a, b engine.Op) bool {
	switch {
	case (a.Send == nil) != (b.Send == nil), (a.Settle == nil) != (b.Settle == nil):
		return false
	case a.Send != nil && *a.Send != *b.Send, a.Settle != nil && *a.Settle != *b.Settle:
		return false
	}
	return true
}

// CloseTour closes the tour; the run stays as it is.
func (s *Session) CloseTour() { s.view.Tour, s.tourReset = 0, "" }
