package e2e

import (
	"context"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Virtual time makes a timed behaviour (the player's pace) a matter of
// which steps happened within so many virtual milliseconds, however slowly
// the machine runs. While it is paused, no page timer fires: check the page
// with single evaluations then (waitFor's looks are), never with a poll
// that runs on the page's timers (chromedp.Poll).

// pauseVirtualTime stops the page's clock.
func pauseVirtualTime(b *browser) {
	b.t.Helper()
	b.discard = true // a paused clock cannot be given to the next test
	_, err := chromedp.Call(b.ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyPause,
	})
	if err != nil {
		b.t.Fatalf("pausing virtual time: %v", err)
	}
}

// advanceVirtualTime lets the page's clock run ms virtual milliseconds,
// then pauses it again.
func advanceVirtualTime(b *browser, ms float64) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	expired := chromedp.Events(ctx, emulation.VirtualTimeBudgetExpired) // subscribed before the budget starts
	_, err := chromedp.Call(ctx, emulation.SetVirtualTimePolicy, emulation.SetVirtualTimePolicyParams{
		Policy: emulation.VirtualTimePolicyAdvance, Budget: &ms,
	})
	if err != nil {
		b.t.Fatalf("granting %v ms of virtual time: %v", ms, err)
	}
	for _, err := range expired {
		if err != nil {
			b.t.Fatalf("waiting for %v ms of virtual time to pass: %v", ms, err)
		}
		return
	}
}
