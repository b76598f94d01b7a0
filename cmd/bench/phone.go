package main

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The phone profile (issue 53): Lighthouse's mobile one, a phone's screen
// at 4× less CPU than this machine's, on a 1.6 Mbit/s link with 562.5 ms
// of latency. A reader taps Take the tour as soon as the verdict is
// painted, and Next when the first card is, long before the engine runs.
const (
	phoneW, phoneH = 360, 800
	phoneScale     = 1.75
	phoneCPU       = 4
	phoneDown      = 1_600_000 / 8 // bytes/s
	phoneUp        = 750_000 / 8
	phoneLatency   = 562.5 // ms
	// phoneRuns is how many of the runs measure the phone profile.
	phoneRuns = 3
)

// phoneVisit is one cold visit on the phone profile, in ms: Verdict and
// Ready since navigation start, the cards from the tap that asked for them
// (NaN when the card was not painted before the engine ran).
type phoneVisit struct {
	Verdict   float64 `json:"verdict_painted_ms"`
	Parsed    float64 `json:"dom_content_loaded_ms"` // the early states are there`
	FirstCard float64 `json:"first_card_ms"`
	NextCard  float64 `json:"next_card_ms"`
	Ready     float64 `json:"interactive_ms"`
	// SameCard: the app, once it runs, shows the card the reader was on.
	SameCard bool `json:"same_card"`
}

// phoneState is what hook.js noted so far.
type phoneState struct {
	Ready   *float64 `json:"ready"`
	Painted []struct {
		ID   string  `json:"id"`
		Text string  `json:"text"`
		T    float64 `json:"t"`
	} `json:"painted"`
	Taps []struct {
		ID string  `json:"id"`
		T  float64 `json:"t"`
	} `json:"taps"`
}

// paintedAt is when the first element id painted with text holding want, or -1.
func (s phoneState) paintedAt(id, want string) float64 {
	for _, p := range s.Painted {
		if p.ID == id && strings.Contains(p.Text, want) {
			return p.T
		}
	}
	return -1
}

// tappedAt is when the last click on id was, or -1.
func (s phoneState) tappedAt(id string) float64 {
	t := -1.0
	for _, tap := range s.Taps {
		if tap.ID == id {
			t = tap.T
		}
	}
	return t
}

// measurePhone makes one cold visit on the phone profile.
func measurePhone(ctx context.Context, exe, url string) (phoneVisit, error) {
	v := phoneVisit{Verdict: -1, Parsed: -1, FirstCard: math.NaN(), NextCard: math.NaN(), Ready: -1}
	b, err := newBrowser(ctx, exe)
	if err != nil {
		return v, err
	}
	defer b.close()
	err = b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: phoneW, Height: phoneH, DeviceScaleFactor: phoneScale, Mobile: true,
		}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: phoneCPU}); err != nil {
			return err
		}
		if err := trackNetwork(ctx, t); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: phoneLatency, DownloadThroughput: phoneDown, UploadThroughput: phoneUp}},
		}); err != nil {
			return fmt.Errorf("throttling the network: %w", err)
		}
		if _, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: hookJS}); err != nil {
			return err
		}
		// Not chromedp.Navigate, which waits for the load event: the
		// reader taps before it.
		_, err := cdp.Call(ctx, t, page.Navigate, page.NavigateParams{URL: url})
		return err
	})
	if err != nil {
		return v, err
	}
	deadline := time.Now().Add(readyTimeout)
	until := func(what string, done func(s phoneState) bool) (phoneState, error) {
		for {
			s, err := call[phoneState](ctx, b, stepTimeout, `() => window.__bench || {painted: [], taps: []}`)
			if err == nil && done(s) {
				return s, nil
			}
			if time.Now().After(deadline) {
				return s, fmt.Errorf("phone profile: no %s within %v", what, readyTimeout)
			}
			select {
			case <-ctx.Done():
				return s, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
		}
	}
	s, err := until("verdict painted", func(s phoneState) bool { return s.paintedAt("verdict", "") >= 0 })
	if err != nil {
		return v, err
	}
	v.Verdict = s.paintedAt("verdict", "")
	card := func(n int) string { return fmt.Sprintf("card %d of", n) }
	for n, control := range []string{"take-tour", "tour-next"} {
		if s.Ready != nil {
			break // the engine ran first: what follows is not the early page
		}
		if err := b.tap(ctx, control); err != nil {
			return v, err
		}
		if s, err = until(card(n+1)+" or the engine", func(s phoneState) bool {
			return s.paintedAt("tour-pos", card(n+1)) >= 0 || s.Ready != nil
		}); err != nil {
			return v, err
		}
		at := s.paintedAt("tour-pos", card(n+1))
		if at < 0 || s.Ready != nil {
			continue
		}
		if n == 0 {
			v.FirstCard = at - s.tappedAt(control)
		} else {
			v.NextCard = at - s.tappedAt(control)
		}
	}
	if s, err = until("engine interactive", func(s phoneState) bool { return s.Ready != nil }); err != nil {
		return v, err
	}
	v.Ready = *s.Ready
	if v.Parsed, err = call[float64](ctx, b, stepTimeout, `() => performance.getEntriesByType("navigation")[0].domContentLoadedEventStart`); err != nil {
		return v, err
	}
	if !math.IsNaN(v.NextCard) {
		pos, err := call[string](ctx, b, stepTimeout, `async () => {
			await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
			return (document.getElementById("tour-pos") || {}).textContent || "";
		}`)
		if err != nil {
			return v, err
		}
		v.SameCard = strings.Contains(pos, card(2))
	}
	return v, nil
}

// tap clicks the middle of the element of that id, as a finger does: the
// browser's own input, not a script's click().
func (b *browser) tap(ctx context.Context, id string) error {
	xy, err := call[[]float64](ctx, b, stepTimeout, `(id) => {
		const r = document.getElementById(id).getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	}`, id)
	if err != nil {
		return fmt.Errorf("finding #%s: %w", id, err)
	}
	return b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
		for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
			if _, err := cdp.Call(ctx, t, input.DispatchMouseEvent, input.DispatchMouseEventParams{
				Type: typ, X: xy[0], Y: xy[1], Button: input.MouseButtonLeft, ClickCount: 1,
			}); err != nil {
				return fmt.Errorf("tapping #%s: %w", id, err)
			}
		}
		return nil
	})
}
