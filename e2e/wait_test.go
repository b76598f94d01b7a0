package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The suite's one way of waiting: look again every pollEvery until the
// condition holds or the deadline passes, then fail saying what was awaited
// and how things last stood. waitFor is the form for the page (a JavaScript
// predicate), waitUntil the form for anything else (a file, a target, a
// value read from two tabs), and poll the loop under both, for a caller that
// handles the timeout itself (the soak walk). Nothing sleeps and hopes.

// pollEvery is how soon a wait looks again.
const pollEvery = 20 * time.Millisecond

// poll calls check until it reports true, or until timeout has passed: then
// the error names what was awaited and how things last stood (check's second
// result).
func poll(timeout time.Duration, what string, check func() (ok bool, last string)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, last := check()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %s for %s; %s", timeout, what, last)
		}
		time.Sleep(pollEvery)
	}
}

// waitUntil is poll that fails the test on a timeout.
func waitUntil(t testing.TB, what string, timeout time.Duration, check func() (ok bool, last string)) {
	t.Helper()
	if err := poll(timeout, what, check); err != nil {
		t.Fatal(err)
	}
}

// waitOption changes a waitFor.
type waitOption func(*time.Duration)

// within gives a waitFor a timeout of its own, instead of uiTimeout: for a
// page that has to load and compile the wasm first, say.
func within(d time.Duration) waitOption { return func(timeout *time.Duration) { *timeout = d } }

// waitFor waits until the JavaScript predicate js is truthy in b's page (a
// promise is awaited), looking again every pollEvery for uiTimeout (see
// within). Each look is one evaluation, so the wait survives a navigation
// (an evaluation that fails counts as false) and a page whose clock is
// paused (virtual_time_test.go). On a timeout the test fails with what was
// awaited, the predicate, the last evaluation's error and what the page
// shows.
func waitFor(b *browser, what, js string, opts ...waitOption) {
	b.t.Helper()
	timeout := uiTimeout
	for _, o := range opts {
		o(&timeout)
	}
	deadline := time.Now().Add(timeout)
	err := poll(timeout, what, func() (bool, string) {
		ctx, cancel := context.WithDeadline(b.ctx, deadline.Add(time.Second))
		defer cancel()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js, chromedp.EvalAwaitPromise))
		if err != nil {
			return false, fmt.Sprintf("the last look at %s failed: %v", js, err)
		}
		return ok, fmt.Sprintf("%s stayed false", js)
	})
	if err != nil {
		b.t.Fatalf("%v; the page shows %s", err, pageSummary(b))
	}
}

// pageSummary says in one line where b's page is and what it shows, for a
// failure message.
func pageSummary(b *browser) string {
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const text = id => { const el = document.getElementById(id); return el ? el.textContent.trim() : "(none)"; };
		return JSON.stringify({url: location.href, ready: !!document.querySelector(`+jsLit(readySelector)+`),
			loader: text("app-wasm-loader-label"), status: text("status"), verdict: text("verdict"), step: text("step-pos")});
	})()`))
	if err != nil {
		return fmt.Sprintf("(unreadable: %v)", err)
	}
	return s
}
