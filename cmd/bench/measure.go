package main

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"kvleak/engine"
	"kvleak/internal/benchkit"
)

// glmPreset is the launch scenario of the Send and memory budgets (prefill
// pool 681,280 pages, decode's 1,048,576); its last request (900,000 tokens
// from tenant B) is what Send repeats.
const glmPreset = "glm-launch"

// glmSummary is in decode's pool summary once the preset shows.
var glmSummary = "of " + engine.Thousands(engine.GLMDecodePoolTokens)

// hourQuery opens the page at issue 40's setting for Mooncake's
// conversation hour (e2e's hourLink): a 131,072-token context over a
// 100,000-token prefill pool, where the replay's budgets apply.
const hourQuery = "?v=3&ctx=131072&pool=100000&dpool=131072&page=64"

// The animation frames before each timed action (cmd/bench/js/act.js),
// which runs inside a frame's callbacks. A drag moves once a frame, so a
// scrub follows the last one's frame. A click of a reader comes 100 ms or
// more after the last, and the page's own work after a paint (the address
// bar, the panels that follow a change: web/dom/afterpaint.go) asked for from
// inside a frame's callbacks runs after the next frame: with one frame
// between clicks it ran inside the next click's timing, about doubling a
// Step's. Three frames let it finish.
const (
	clickSettle = 3
	dragSettle  = 1
)

// runResult is everything one cold run measured.
type runResult struct {
	chromium string

	Loopback        visit    `json:"loopback"`
	Served          []served `json:"served_loopback"` // by the server, service worker included
	SWCached        bool     `json:"sw_cached"`
	Throttled       visit    `json:"throttled"`
	ServedThrottled []served `json:"served_throttled"`
	// A second visit in the loopback browser, its service worker installed.
	Repeat       visit    `json:"repeat"`
	ServedRepeat []served `json:"served_repeat"`
	// On the phone profile, in the first phoneRuns runs (phone.go).
	Phone phoneVisit `json:"phone"`

	SendDemo     []timing     `json:"send_demo"`
	StepDemo     []timing     `json:"step_demo"`
	ScrubDemo    []timing     `json:"scrub_demo"`
	PresetSwitch []timing     `json:"preset_switch"`
	SendGLM      []timing     `json:"send_glm"`
	ScrubGLM     []timing     `json:"scrub_glm"`
	MapDraws     []float64    `json:"pool_map_draws_ms"` // each drawing of decode's full map at glm-launch
	ReplayHour   replayTiming `json:"replay_hour"`       // Mooncake's conversation hour in the Replay panel
	MemLoop      []timing     `json:"mem_loop"`
	// The reference pages, by name (floorPages), with -floor.
	Floor map[string]floorResult `json:"floor,omitempty"`

	MemLoad      memInfo             `json:"mem_load"` // demo, after load
	RendererMem  rendererMem         `json:"renderer_mem_load"`
	MemGLM       memInfo             `json:"mem_glm"`   // after the preset and the timed sends
	MemAfter     memInfo             `json:"mem_after"` // after -mem-sends more requests
	Profile      []benchkit.FuncTime `json:"-"`         // of SendGLM, with -profile
	ProfileDemo  []benchkit.FuncTime `json:"-"`         // of SendDemo, with -profile
	ProfileStart []benchkit.FuncTime `json:"-"`         // of the loopback load, with -profile
	ProfileScrub []benchkit.FuncTime `json:"-"`         // of ScrubGLM, with -profile
}

// measureRun is one cold run: a first visit on loopback followed by the
// interactions, then a second fresh browser for the throttled first visit.
func measureRun(ctx context.Context, cfg config, exe, url, prefix string, tl *tally, idx int, logf func(string, ...any)) (runResult, error) {
	// Not measured until it is: a zero would pass the repeat and replay budgets.
	r := runResult{Repeat: visit{Times: notLoaded}, ReplayHour: replayTiming{-1, -1},
		Phone: phoneVisit{Verdict: -1, Parsed: -1, FirstCard: math.NaN(), NextCard: math.NaN(), Ready: -1}}
	vlog := func(format string, a ...any) {
		if cfg.verbose {
			logf("run %d: "+format, append([]any{idx + 1}, a...)...)
		}
	}
	phone := func() (err error) {
		if r.Phone, err = measurePhone(ctx, exe, url); err != nil {
			return fmt.Errorf("phone profile: %w", err)
		}
		vlog("phone: verdict %.0f ms, first card %.0f ms after the tap, next %.0f ms, interactive %.0f ms",
			r.Phone.Verdict, r.Phone.FirstCard, r.Phone.NextCard, r.Phone.Ready)
		return nil
	}
	if cfg.phone {
		return r, phone()
	}

	// 1. Loopback, cold profile.
	b, err := newBrowser(ctx, exe)
	if err != nil {
		return r, err
	}
	defer b.close()
	r.chromium = b.version()
	profiling := cfg.profile != "" && idx == 0
	var prof *cpuProfiler
	if profiling {
		// The start's profile: the tab first opens a file of the site, so
		// that the page's navigation stays in the renderer whose V8 is
		// being profiled. Only the profiled run is disturbed by it.
		if err := b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
			_, err := chromedp.Navigate(url+"manifest.webmanifest")(ctx, t)
			return err
		}); err != nil {
			return r, err
		}
		if prof, err = startProfiler(ctx, b); err != nil {
			return r, err
		}
	}
	tl.take()
	if r.Loopback, err = b.load(ctx, url, false, ""); err != nil {
		return r, fmt.Errorf("loopback visit: %w", err)
	}
	if prof != nil {
		if r.ProfileStart, err = prof.stop(ctx, profilePath(cfg.profile, "start")); err != nil {
			return r, err
		}
		prof = nil
	}
	vlog("loopback: FCP %.0f ms, ready %.0f ms", r.Loopback.Times.FCP, r.Loopback.Times.Ready)
	r.SWCached = b.waitSWCached(ctx, prefix+"/web/app.wasm", 30*time.Second)
	r.Served = tl.take()

	if r.MemLoad, err = b.memory(ctx); err != nil {
		return r, fmt.Errorf("memory after load: %w", err)
	}
	if r.RendererMem, err = b.rendererMemory(ctx); err != nil {
		return r, fmt.Errorf("renderer memory after load: %w", err)
	}
	// 2. Send at the demo scale (the default page).
	if profiling {
		if prof, err = startProfiler(ctx, b); err != nil {
			return r, err
		}
	}
	if r.SendDemo, err = b.act(ctx, "send", cfg.sends, clickSettle); err != nil {
		return r, fmt.Errorf("sends at the demo scale: %w", err)
	}
	if prof != nil {
		if r.ProfileDemo, err = prof.stop(ctx, profilePath(cfg.profile, "demo")); err != nil {
			return r, err
		}
	}
	vlog("demo sends: median %.1f ms", medianOf(r.SendDemo, byPainted))
	if r.StepDemo, err = b.act(ctx, "step", cfg.sends, clickSettle); err != nil {
		return r, fmt.Errorf("steps at the demo scale: %w", err)
	}
	if r.ScrubDemo, err = b.act(ctx, "scrub", cfg.sends, dragSettle); err != nil {
		return r, fmt.Errorf("scrubbing at the demo scale: %w", err)
	}
	vlog("demo scrub: %s", phases(r.ScrubDemo))
	// 3. The launch preset.
	if r.PresetSwitch, err = b.act(ctx, "preset:"+glmPreset, 1, clickSettle); err != nil {
		return r, fmt.Errorf("switching to %s: %w", glmPreset, err)
	}
	m, err := b.memory(ctx)
	if err != nil {
		return r, err
	}
	if !strings.Contains(m.Summary, glmSummary) {
		return r, fmt.Errorf("after picking %s the pool says %q, not %q", glmPreset, m.Summary, glmSummary)
	}
	if profiling {
		if prof, err = startProfiler(ctx, b); err != nil {
			return r, err
		}
	}
	if r.SendGLM, err = b.act(ctx, "send", cfg.sends, clickSettle); err != nil {
		return r, fmt.Errorf("sends at %s: %w", glmPreset, err)
	}
	if prof != nil {
		if r.Profile, err = prof.stop(ctx, cfg.profile); err != nil {
			return r, err
		}
	}
	vlog("glm-launch sends: median %.1f ms", medianOf(r.SendGLM, byPainted))
	if profiling {
		if prof, err = startProfiler(ctx, b); err != nil {
			return r, err
		}
	}
	if r.ScrubGLM, err = b.act(ctx, "scrub", cfg.sends, dragSettle); err != nil {
		return r, fmt.Errorf("scrubbing at %s: %w", glmPreset, err)
	}
	vlog("glm-launch scrub: %s", phases(r.ScrubGLM))
	if prof != nil {
		if r.ProfileScrub, err = prof.stop(ctx, profilePath(cfg.profile, "scrub")); err != nil {
			return r, err
		}
	}
	if r.MapDraws, err = b.mapDraws(ctx); err != nil {
		return r, err
	}
	// 4. Memory before and after many requests.
	if r.MemGLM, err = b.memory(ctx); err != nil {
		return r, err
	}
	if cfg.memSends > 0 {
		if r.MemLoop, err = b.act(ctx, "send", cfg.memSends, 0); err != nil {
			return r, fmt.Errorf("%d sends for the memory check: %w", cfg.memSends, err)
		}
		if r.MemAfter, err = b.memory(ctx); err != nil {
			return r, err
		}
		vlog("memory: wasm %.1f → %.1f MB, JS heap %.1f → %.1f MB", r.MemGLM.WasmMemory/1e6, r.MemAfter.WasmMemory/1e6, r.MemGLM.JSHeapUsed/1e6, r.MemAfter.JSHeapUsed/1e6)
	}
	if cfg.quick {
		return r, nil
	}
	// 5. The repeat visit: last in this browser, so that it changes none
	// of the figures above; the tab navigates afresh to the start page.
	if r.SWCached {
		tl.take()
		if r.Repeat, err = b.load(ctx, url, false, ""); err != nil {
			return r, fmt.Errorf("repeat visit: %w", err)
		}
		r.ServedRepeat = tl.take()
		vlog("repeat: ready %.0f ms, %d responses served", r.Repeat.Times.Ready, len(r.ServedRepeat))
	}
	// 6. The replay of an hour of real traffic, after everything above.
	if _, err := b.load(ctx, url+hourQuery, false, ""); err != nil {
		return r, fmt.Errorf("opening the page for the replay: %w", err)
	}
	if r.ReplayHour, err = b.replay(ctx, "mooncake-conversation", "Mooncake, conversation"); err != nil {
		return r, fmt.Errorf("replaying Mooncake's conversation hour: %w", err)
	}
	vlog("replay of the hour: %.0f ms, longest slice %.0f ms", r.ReplayHour.ElapsedMs, r.ReplayHour.LongestSliceMs)
	b.close()

	// 7. Throttled, another cold profile.
	bt, err := newBrowser(ctx, exe)
	if err != nil {
		return r, err
	}
	defer bt.close()
	tl.take()
	if r.Throttled, err = bt.load(ctx, url, true, ""); err != nil {
		return r, fmt.Errorf("throttled visit: %w", err)
	}
	bt.waitSWCached(ctx, prefix+"/web/app.wasm", 30*time.Second)
	r.ServedThrottled = tl.take()
	vlog("throttled: FCP %.0f ms, ready %.0f ms", r.Throttled.Times.FCP, r.Throttled.Times.Ready)
	bt.close()

	// 8. The phone profile, another cold profile.
	if idx < phoneRuns {
		if err := phone(); err != nil {
			return r, err
		}
	}

	// 9. The reference pages, each cold, in the same run.
	if cfg.floor != "" {
		r.Floor = map[string]floorResult{}
		for _, name := range floorPages {
			f, err := measureFloor(ctx, exe, filepath.Join(cfg.floor, name), cfg.sends)
			if err != nil {
				return r, fmt.Errorf("reference page %s: %w", name, err)
			}
			r.Floor[name] = f
			vlog("reference page %s: FCP %.0f ms, ready %.0f ms", name, f.Load.Times.FCP, f.Load.Times.Ready)
		}
	}
	return r, nil
}

// phases says where a median action's time went, for -v.
func phases(ts []timing) string {
	return fmt.Sprintf("handler %.1f, DOM %.1f, frame %.1f, painted %.1f ms",
		medianOf(ts, byHandler), medianOf(ts, byDOM), medianOf(ts, func(t timing) float64 { return t.Frame }), medianOf(ts, byPainted))
}

// profilePath is where -profile's other profiles go (the demo scale's
// sends, the 681,280-page scrubbing): next to the 681,280-page sends' one,
// with "-"+what before the extension.
func profilePath(p, what string) string {
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + "-" + what + ext
}
