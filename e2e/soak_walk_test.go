package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// A walk is a plan drawn from the seed alone: for each action its kind and
// two numbers that pick the target and the value. The plan never depends on
// the page, so the same seed replays the same walk; what the numbers pick
// is read from the DOM when the action runs, so new controls join the walk.
type soakStep struct {
	kind *soakKind
	a, b uint64
}

func soakPlan(seed uint64, n int) []soakStep {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	total := 0
	for _, k := range soakKinds {
		total += k.weight
	}
	plan := make([]soakStep, n)
	for i := range plan {
		r := rng.IntN(total)
		for j := range soakKinds {
			if r -= soakKinds[j].weight; r < 0 {
				plan[i].kind = &soakKinds[j]
				break
			}
		}
		plan[i].a, plan[i].b = rng.Uint64(), rng.Uint64()
	}
	return plan
}

// walker runs a plan against the page.
type walker struct {
	b        *browser
	base     string   // the app's URL, without a query
	files    []string // for #import
	logFiles []string // for #replay-file
	panics   *panicWatch
	trace    []string
	navs     int // the last mark of a document (see mark)
}

// answerTimeout bounds one command to the page: a page that does not
// answer in this time is dead (frozen), whatever the load.
const answerTimeout = 45 * time.Second

// probeEvery is how many actions run between two liveness probes.
const probeEvery = 4

// errDead marks a page that stopped answering.
var errDead = errors.New("dead page")

// do runs actions against the page, bounded by answerTimeout.
func (w *walker) do(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// js evaluates expr and decodes its value.
func soakJS[T any](w *walker, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(w.b.ctx, answerTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("%w: no answer in %s to %.80q", errDead, answerTimeout, expr)
	}
	return v, err
}

// problems is what went wrong so far: exceptions, console errors, Go's
// death.
func (w *walker) problems() []string {
	w.b.mu.Lock()
	ps := append([]string(nil), w.b.problems...)
	w.b.mu.Unlock()
	return append(ps, w.panics.Seen()...)
}

// probe proves the wasm still answers: #table-toggle flips aria-pressed
// only through a Go handler and a render. go-app renders on its next frame,
// so a toggle the walk clicked just before may still be on its way and undo
// the probe's flip on screen: then a second click shows one.
func (w *walker) probe() error {
	for _, wait := range []time.Duration{5 * time.Second, answerTimeout} {
		before, err := soakJS[string](w, `(() => {
			const t = document.getElementById("table-toggle");
			if (!t) return "absent";
			const was = t.getAttribute("aria-pressed");
			t.click();
			return was;
		})()`)
		if err != nil {
			return err
		}
		if before == "absent" {
			return fmt.Errorf("%w: #table-toggle is gone (no pool panel)", errDead)
		}
		err = w.waitFor("#table-toggle to flip", fmt.Sprintf(
			`document.getElementById("table-toggle")?.getAttribute("aria-pressed") !== %s`, jsLit(before)), wait)
		if err == nil || !errors.Is(err, errDead) {
			return err
		}
	}
	return fmt.Errorf("%w: #table-toggle clicked twice and never flipped", errDead)
}

// waitFor waits for a JavaScript predicate; a page that never makes it
// true, or stops answering, is dead. As the suite's waitFor, each look is
// one evaluation (chromedp.Poll loses the page after a back-forward cache
// restore), but a failure is the walk's to report, not a test failure.
func (w *walker) waitFor(what, predicate string, timeout time.Duration) error {
	var last error
	err := poll(timeout, what, func() (bool, string) {
		ok, err := soakJS[bool](w, predicate)
		last = err
		return errors.Is(err, errDead) || (err == nil && ok), fmt.Sprintf("last error: %v", err)
	})
	switch {
	case errors.Is(last, errDead):
		return fmt.Errorf("waiting for %s: %w", what, last)
	case err != nil:
		return fmt.Errorf("%w: %v", errDead, err)
	}
	return nil
}

// soakResult is a walk's outcome.
type soakResult struct {
	done    int    // actions run
	failAt  int    // the action after which the failure showed, or -1
	failure string // what failed
}

// walk runs the plan, stopping at the first problem.
func (w *walker) walk(plan []soakStep) soakResult {
	for i, st := range plan {
		desc, err := st.kind.do(w, st.a, st.b)
		w.trace = append(w.trace, fmt.Sprintf("#%d %s %s", i, st.kind.name, desc))
		if err == nil && (st.kind.navigates || i%probeEvery == probeEvery-1 || i == len(plan)-1) {
			err = w.probe()
		}
		if ps := w.problems(); len(ps) > 0 {
			return soakResult{done: i + 1, failAt: i, failure: strings.Join(ps, "\n")}
		}
		if err != nil {
			return soakResult{done: i + 1, failAt: i, failure: err.Error()}
		}
	}
	return soakResult{done: len(plan), failAt: -1}
}

// lastTrace is the end of the trace, for a failure message.
func (w *walker) lastTrace(n int) string {
	from := max(0, len(w.trace)-n)
	return strings.Join(w.trace[from:], "\n")
}
