package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"kvleak/internal/headless"
	"kvleak/internal/testskip"
)

const (
	viewW, viewH = 1280, 900
	// actionTimeout bounds one Do/run call. Compiling the wasm on a busy
	// 2-core CI machine can take a while, so readiness gets longer.
	actionTimeout = 60 * time.Second
	readyTimeout  = 2 * time.Minute
)

// browser is one tab in a browser context of its own, lent to one test
// (see tabPool). Any uncaught exception or console/log error fails the test
// at its end, and a failed test leaves build/e2e-failures/<TestName>.png
// behind.
type browser struct {
	t   *testing.T
	ctx context.Context // the tab: pass to chromedp.Run/Do for anything custom
	tab *pooledTab

	mu       sync.Mutex
	problems []string
	allowed  []*regexp.Regexp
	// discard is set by a test that changed what the next test would
	// inherit and cannot be undone (the page's virtual clock, the
	// context's downloads): the tab is closed, not lent again.
	discard bool
}

// chromium finds a browser binary, or skips (fails under CI) without one.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	testskip.Need(t, "NO CHROMIUM FOUND: browser tests did not run (apt-get install chromium)")
	return ""
}

// testChromium is the browser the shared tabs run in: Chromium's headless
// shell (Debian's chromium-headless-shell, the same Chromium) where it is
// installed, else chromium. The shell is the same Blink and V8 without a
// browser window's machinery, and runs the suite's pages in about 0.6 of
// full Chromium's time (docs/performance.md). What only a window does is
// tested in full Chromium (newWindowedBrowser).
func testChromium(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("chromium-headless-shell"); err == nil {
		return p
	}
	return chromium(t)
}

// newWindowedBrowser is a Chromium of t's own, the full browser, for what
// only a browser window does: a tab opened in front hides the page.
func newWindowedBrowser(t *testing.T) *browser {
	t.Helper()
	return newBrowserWithProfile(t, func(string) {})
}

// newBrowser lends t a tab at a 1280×900 viewport, in a browser context of
// its own (as a private window: its own storage, cache, service workers and
// permissions) in the package's shared Chromium. The tab is given back when
// the test ends (tabPool says why and how).
func newBrowser(t *testing.T) *browser {
	t.Helper()
	b := &browser{t: t}
	tab := tabs.take()
	if tab == nil {
		var err error
		if tab, err = openTab(shared.start(t)); err != nil {
			t.Fatalf("opening a tab in a new browser context: %v", err)
		}
	}
	tab.owner.Store(b)
	b.tab, b.ctx = tab, tab.ctx
	t.Cleanup(b.giveBack)
	t.Cleanup(b.finish) // runs before the tab is given back
	// Tests run side by side in tabs of one browser (t.Parallel): each tab
	// is told it has the focus, as a lone window would, so that focus and
	// blur behave as a reader's.
	b.emulateFocus(true)
	return b
}

// emulateFocus tells b's tab it has the focus (and is shown) whatever tab
// is in front, or, with on false, lets the browser say: a test that hides
// its page behind another tab turns it off.
func (b *browser) emulateFocus(on bool) {
	b.t.Helper()
	b.Do(func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: on})
		return chromedp.Void{}, err
	})
}

// emulateMedia has b's page match a media feature ("prefers-color-scheme",
// "dark"), as the reader's system setting would; a page already open
// follows it live. The tab's reset clears it.
func (b *browser) emulateMedia(feature, value string) {
	b.t.Helper()
	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: feature, Value: value}},
	})
	if err != nil {
		b.t.Fatalf("emulating %s: %s: %v", feature, value, err)
	}
	waitFor(b, feature+": "+value, "matchMedia("+jsLit("("+feature+": "+value+")")+").matches")
}

// contextID is the browser context of b's tab, for the browser-wide
// commands that take one (permissions, downloads): without it they apply
// to the shared browser's default context, which no test's tab is in.
func (b *browser) contextID() cdp.BrowserContextID {
	return chromedp.FromContext(b.ctx).BrowserContextID
}

// baselineWasm has V8 compile the wasm with its baseline compiler only.
// By default every page load compiles app.wasm twice: Liftoff at once, then
// TurboFan for the hot functions on the other core, work that the suite's
// short-lived pages never earn back (docs/performance.md has the figures).
// The module's meaning is the same in either tier; `make bench` measures
// the page as readers get it, with both.
var baselineWasm = chromedp.Flag("js-flags", "--liftoff-only")

// sharedChromium is the one Chromium that the package's tests open their
// tabs in: started by the first test that needs it, closed by TestMain.
// newBrowser's browser contexts keep the tests apart as separate browsers
// did, without a browser's start in every test. A browser that died is
// started again, so a crash fails one test, not the rest of the package.
type sharedChromium struct {
	mu   sync.Mutex
	ctx  context.Context // the browser: a parent for newBrowser's contexts
	stop func()
}

var shared sharedChromium

func TestMain(m *testing.M) {
	code := m.Run()
	tabs.closeAll()
	shared.close()
	os.Exit(code)
}

// start returns the running browser, starting it if need be. Without a
// Chromium it skips t (fails it under CI), as each browser test did before
// the browser was shared.
func (s *sharedChromium) start(t *testing.T) context.Context {
	t.Helper()
	exe := testChromium(t)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx != nil && s.ctx.Err() == nil {
		return s.ctx
	}
	s.closeLocked()
	profile, err := os.MkdirTemp("", "kvleak-e2e-chromium-")
	if err != nil {
		t.Fatalf("a profile for Chromium: %v", err)
	}
	// Not t.Context() and no timeout: the browser outlives the test.
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), headless.Options(exe, profile, viewW, viewH, baselineWasm)...)
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	s.ctx, s.stop = ctx, func() { cancelBrowser(); cancelAlloc(); os.RemoveAll(profile) }
	if err := chromedp.Do(ctx); err != nil {
		s.closeLocked()
		t.Fatalf("starting %s: %v", exe, err)
	}
	return s.ctx
}

func (s *sharedChromium) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

func (s *sharedChromium) closeLocked() {
	if s.stop != nil {
		s.stop()
	}
	s.ctx, s.stop = nil, nil
}

// record runs in chromedp's read loop (pooledTab.listen): record and
// return, nothing more.
func (b *browser) record(ev any) {
	var p string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		p = fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, d.Text)
		if d.Exception != nil {
			p += " " + d.Exception.Description
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			p = "console." + string(ev.Type) + ": " + argsText(ev.Args)
		}
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			p = fmt.Sprintf("browser log (%s): %s %s", e.Source, e.Text, e.URL)
		}
	}
	if p != "" {
		b.mu.Lock()
		b.problems = append(b.problems, p)
		b.mu.Unlock()
	}
}

func argsText(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case len(a.Value) > 0:
			parts = append(parts, strings.Trim(string(a.Value), `"`))
		case a.Description != "":
			parts = append(parts, a.Description)
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// Allow tolerates console errors matching pattern, for a test that
// provokes one on purpose.
func (b *browser) Allow(pattern string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.allowed = append(b.allowed, regexp.MustCompile(pattern))
}

// finish fails the test on recorded problems, then screenshots a failure.
func (b *browser) finish() {
	b.mu.Lock()
	for _, p := range b.problems {
		if !b.isAllowed(p) {
			b.t.Errorf("browser: %s", p)
		}
	}
	b.mu.Unlock()
	if b.t.Failed() {
		path := filepath.Join(repoRoot(b.t), "build", "e2e-failures", safeName(b.t.Name())+".png")
		if err := b.screenshot(path, 0); err != nil {
			b.t.Logf("failure screenshot: %v", err)
		} else {
			b.t.Logf("failure screenshot: %s", path)
		}
	}
}

func (b *browser) isAllowed(p string) bool {
	for _, re := range b.allowed {
		if re.MatchString(p) {
			return true
		}
	}
	return false
}

var unsafeChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func safeName(s string) string { return unsafeChars.ReplaceAllString(s, "_") }

// Do runs actions with a timeout and fails the test on error.
func (b *browser) Do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// run is Do for one action with a result, e.g.
// run(b, chromedp.Text(chromedp.ID("status"))).
func run[T any](b *browser, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("browser: %v", err)
	}
	return v
}

// readySelector is the readiness contract with the UI: the wasm app sets
// data-ready="true" on #playground once mounted (OnMount). The prerendered
// HTML has the same element without it, so this only matches once wasm runs.
const readySelector = `#playground[data-ready="true"]`

// Open navigates to url and waits until the wasm app is running.
func (b *browser) Open(url string) {
	b.t.Helper()
	b.Do(chromedp.Navigate(url))
	b.WaitReady()
}

// WaitReady waits for the readiness contract; a failure shows the loader
// label, where go-app shows wasm load errors (pageSummary).
func (b *browser) WaitReady() {
	b.t.Helper()
	waitFor(b, "the wasm app to run", jsExists(readySelector), within(readyTimeout))
}

// shooting is set by `make screens` (KVLEAK_SCREENSHOTS=1): the tests then
// save their screenshots for a human to look at. Without it they check the
// same pages and skip the captures, which cost the suite more than the checks.
var shooting = os.Getenv("KVLEAK_SCREENSHOTS") == "1"

// Screenshot saves a full-page PNG at the given viewport width (0 keeps
// 1280), for humans to look at, when shooting (`make screens`). The
// viewport is restored afterwards.
func (b *browser) Screenshot(path string, width int) {
	b.t.Helper()
	if !shooting {
		return
	}
	if err := b.screenshot(path, width); err != nil {
		b.t.Fatalf("screenshot %s: %v", path, err)
	}
}

func (b *browser) screenshot(path string, width int) error {
	if width == 0 {
		width = viewW
	}
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) ([]byte, error) {
		if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: int64(width), Height: viewH, DeviceScaleFactor: 1,
		}); err != nil {
			return nil, err
		}
		defer cdp.Call(ctx, t, emulation.ClearDeviceMetricsOverride, cdp.Empty{})
		m, err := cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{})
		if err != nil {
			return nil, err
		}
		// A viewport as tall as the page: content-visibility: auto (the
		// log's rows) skips painting what is outside the viewport.
		if s := m.CSSContentSize; s != nil && s.Height > viewH {
			if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
				Width: int64(width), Height: int64(s.Height), DeviceScaleFactor: 1,
			}); err != nil {
				return nil, err
			}
			// On screen, those panels take their own height, a few frames
			// later, which may be shorter than the one they were given off
			// screen: the viewport follows the page until it holds still,
			// so that the capture ends with the page.
			for h, i := int64(s.Height), 0; i < 4; i++ {
				r, err := cdp.Call(ctx, t, runtime.Evaluate, runtime.EvaluateParams{
					Expression: `new Promise(done => { let n = 6; const f = () => --n ? requestAnimationFrame(f) :
						done(Math.ceil(document.body.getBoundingClientRect().height)); requestAnimationFrame(f); })`,
					AwaitPromise: ptr(true), ReturnByValue: ptr(true),
				})
				if err != nil {
					return nil, err
				}
				var now float64
				if r.Result == nil || json.Unmarshal(r.Result.Value, &now) != nil || int64(now) <= viewH || int64(now) == h {
					break
				}
				h = int64(now)
				if _, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: int64(width), Height: h, DeviceScaleFactor: 1,
				}); err != nil {
					return nil, err
				}
			}
			if m, err = cdp.Call(ctx, t, page.GetLayoutMetrics, cdp.Empty{}); err != nil {
				return nil, err
			}
		}
		// Clip to the whole content: CaptureBeyondViewport alone still
		// captures only the viewport.
		clip := &page.Viewport{Width: float64(width), Height: viewH, Scale: 1}
		if s := m.CSSContentSize; s != nil {
			clip.Width, clip.Height = max(s.Width, float64(width)), max(s.Height, 1)
		}
		r, err := cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format: page.CaptureScreenshotFormatPng, Clip: clip,
			CaptureBeyondViewport: ptr(true), FromSurface: ptr(true),
		})
		if err != nil {
			return nil, err
		}
		return r.Data, nil
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, png, 0o644)
}

func ptr[T any](v T) *T { return &v }
