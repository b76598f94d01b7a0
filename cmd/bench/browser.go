package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"kvleak/internal/headless"
)

var (
	//go:embed js/hook.js
	hookJS string
	//go:embed js/ready.js
	readyJS string
	//go:embed js/act.js
	actJS string
	//go:embed js/memory.js
	memoryJS string
	//go:embed js/swcached.js
	swCachedJS string
	//go:embed js/replay.js
	replayJS string
)

const (
	viewW, viewH = 1280, 900
	// readyTimeout bounds one cold load: compiling the wasm on a busy 2-core
	// machine takes seconds, a throttled download a few more.
	readyTimeout = 90 * time.Second
	// stepTimeout bounds one DevTools call that is not a load.
	stepTimeout = 60 * time.Second
	// actTimeout bounds the wait for one interaction's DOM update.
	actTimeout = 20 * time.Second
	// replayTimeout bounds a replay of the hour, fetch included.
	replayTimeout = 2 * time.Minute
)

// Throttled link of the "interactive" budget: 9 Mbit/s down, 1 Mbit/s up,
// 40 ms of latency (DevTools adds it to every request's response).
const (
	throttleDown    = 9_000_000 / 8 // bytes/s
	throttleUp      = 1_000_000 / 8
	throttleLatency = 40 // ms
)

// findChromium returns the browser binary: the flag's, else the first of
// the usual names that exists.
func findChromium(flagValue string) (string, error) {
	if flagValue != "" {
		return exec.LookPath(flagValue)
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found (apt-get install chromium, or pass -chromium)")
}

// browser is one headless Chromium with a fresh profile and one tab.
type browser struct {
	tab   context.Context
	close func()
}

// newBrowser starts Chromium on a new, empty profile: no HTTP cache, no
// service worker, nothing from an earlier run.
func newBrowser(ctx context.Context, exe string) (*browser, error) {
	profile, err := os.MkdirTemp("", "kvleak-bench-profile-")
	if err != nil {
		return nil, err
	}
	opts := headless.Options(exe, profile, viewW, viewH,
		// performance.memory with exact numbers, and a gc() to call.
		chromedp.Flag("enable-precise-memory-info", true),
		chromedp.Flag("js-flags", "--expose-gc"),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	var once sync.Once
	b := &browser{tab: tab, close: func() {
		once.Do(func() {
			cancelTab()
			cancelAlloc()
			os.RemoveAll(profile)
		})
	}}
	if err := chromedp.Do(tab); err != nil { // starts the browser: no timeout on this one
		b.close()
		return nil, fmt.Errorf("starting %s: %w", exe, err)
	}
	return b, nil
}

func (b *browser) version() string {
	ctx, cancel := context.WithTimeout(b.tab, stepTimeout)
	defer cancel()
	r, err := chromedp.CallBrowser(ctx, cdpbrowser.GetVersion, cdp.Empty{})
	if err != nil {
		return "unknown"
	}
	return r.Product
}

// call evaluates a function expression from js/ with JSON arguments,
// awaiting its promise, and decodes its result into T.
func call[T any](ctx context.Context, b *browser, timeout time.Duration, fn string, args ...any) (T, error) {
	var zero T
	enc := make([]string, len(args))
	for i, a := range args {
		j, err := json.Marshal(a)
		if err != nil {
			return zero, err
		}
		enc[i] = string(j)
	}
	expr := "(" + strings.TrimSpace(stripLeadingComments(fn)) + ")(" + strings.Join(enc, ",") + ")"
	cctx, cancel := context.WithTimeout(b.tab, timeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	return chromedp.Run(cctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// stripLeadingComments drops the // comment lines that document a js/
// file, so that the file's function expression can be called.
func stripLeadingComments(s string) string {
	lines := strings.Split(s, "\n")
	i := 0
	for i < len(lines) && (strings.HasPrefix(strings.TrimSpace(lines[i]), "//") || strings.TrimSpace(lines[i]) == "") {
		i++
	}
	return strings.Join(lines[i:], "\n")
}

// netRequest is one request of the page as DevTools saw it.
type netRequest struct {
	URL            string  `json:"url"`
	Status         int64   `json:"status"`
	Encoding       string  `json:"encoding"`        // Content-Encoding of the response
	AcceptEncoding string  `json:"accept_encoding"` // as Chromium sent it
	Encoded        float64 `json:"encoded_bytes"`   // loadingFinished.encodedDataLength: headers + body on the wire
	FromSW         bool    `json:"from_service_worker,omitempty"`
	FromCache      bool    `json:"from_cache,omitempty"`
	Failed         string  `json:"failed,omitempty"`
	done           bool
}

// netLog collects the Network domain's events for one visit.
type netLog struct {
	mu    sync.Mutex
	reqs  map[network.RequestID]*netRequest
	order []network.RequestID
	last  time.Time // last event, for "network quiet"
}

func (n *netLog) get(id network.RequestID) *netRequest {
	r, ok := n.reqs[id]
	if !ok {
		r = &netRequest{}
		n.reqs[id] = r
		n.order = append(n.order, id)
	}
	return r
}

// listen runs in chromedp's read loop: record and return.
func (n *netLog) listen(ev any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		n.get(ev.RequestID).URL = ev.Request.URL
	case *network.EventRequestWillBeSentExtraInfo:
		n.get(ev.RequestID).AcceptEncoding = header(ev.Headers, "Accept-Encoding")
	case *network.EventResponseReceived:
		r := n.get(ev.RequestID)
		r.URL, r.Status = ev.Response.URL, ev.Response.Status
		r.Encoding = header(ev.Response.Headers, "Content-Encoding")
		r.FromSW, r.FromCache = ev.Response.FromServiceWorker, ev.Response.FromDiskCache
	case *network.EventLoadingFinished:
		r := n.get(ev.RequestID)
		r.Encoded, r.done = ev.EncodedDataLength, true
	case *network.EventLoadingFailed:
		r := n.get(ev.RequestID)
		r.Failed, r.done = ev.ErrorText, true
	default:
		return
	}
	n.last = time.Now()
}

func header(h network.Headers, name string) string {
	for k, v := range h {
		if strings.EqualFold(k, name) {
			s, _ := v.(string)
			return s
		}
	}
	return ""
}

// quiet reports whether no request is in flight and nothing happened for d.
func (n *netLog) quiet(d time.Duration) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, r := range n.reqs {
		if !r.done && r.URL != "" && !strings.HasPrefix(r.URL, "data:") {
			return false
		}
	}
	return time.Since(n.last) >= d
}

func (n *netLog) requests() []netRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	out := make([]netRequest, 0, len(n.order))
	for _, id := range n.order {
		if r := n.reqs[id]; r.URL != "" {
			out = append(out, *r)
		}
	}
	return out
}

// loadTimes is what ready.js returns, in ms since navigation start.
type loadTimes struct {
	FCP              float64 `json:"fcp"`
	Ready            float64 `json:"ready"`
	ReadyFrame       float64 `json:"readyFrame"`
	InstStart        float64 `json:"instStart"`
	InstEnd          float64 `json:"instEnd"`
	DOMContentLoaded float64 `json:"domContentLoaded"`
	Load             float64 `json:"load"`
	WasmRequest      float64 `json:"wasmRequest"`     // resource timing: the request of app.wasm starts
	WasmResponseEnd  float64 `json:"wasmResponseEnd"` // and its last byte arrives
}

// notLoaded reads as "not measured" (NaN) in every load metric.
var notLoaded = loadTimes{FCP: -1, Ready: -1, ReadyFrame: -1, InstStart: -1, InstEnd: -1, DOMContentLoaded: -1, Load: -1, WasmRequest: -1, WasmResponseEnd: -1}

// visit is one page load.
type visit struct {
	Times    loadTimes    `json:"times"`
	Requests []netRequest `json:"requests"`
}

// load navigates the fresh tab to url (optionally over the throttled link)
// and waits until the app is interactive and the network is quiet. ready,
// if set, is a script that defines window.__benchReady for a page other
// than the playground (hook.js).
func (b *browser) load(ctx context.Context, url string, throttled bool, ready string) (visit, error) {
	var v visit
	nl := &netLog{reqs: map[network.RequestID]*netRequest{}, last: time.Now()}
	lctx, stopListen := context.WithCancel(b.tab)
	defer stopListen()
	if err := chromedp.Listen(lctx, nl.listen); err != nil {
		return v, err
	}
	err := b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
		if err := trackNetwork(ctx, t); err != nil {
			return err
		}
		if throttled {
			if err := throttle(ctx, t); err != nil {
				return err
			}
		}
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: ready + hookJS})
		return err
	})
	if err != nil {
		return v, err
	}
	if err := b.do(ctx, readyTimeout, func(ctx context.Context, t *chromedp.Target) error {
		_, err := chromedp.Navigate(url)(ctx, t)
		return err
	}); err != nil {
		return v, fmt.Errorf("opening %s: %w", url, err)
	}
	v.Times, err = call[loadTimes](ctx, b, readyTimeout+5*time.Second, readyJS, readyTimeout.Milliseconds())
	if err != nil {
		return v, err
	}
	// Network quiet: nothing in flight for 500 ms (bounded).
	deadline := time.Now().Add(15 * time.Second)
	for !nl.quiet(500*time.Millisecond) && time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	v.Requests = nl.requests()
	return v, nil
}

// trackNetwork turns on the network events the bench counts bytes with,
// keeping no response bodies. By default DevTools keeps a copy of each body
// in the renderer for Network.getResponseBody, the wasm's as base64: memory
// in the renderer's Private_Dirty that a reader's tab does not have. The
// bench reads no body. (chromedp enables the domain with the defaults when
// it attaches; enabling again sets the limits.)
func trackNetwork(ctx context.Context, t *chromedp.Target) error {
	none := int64(0)
	_, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{MaxTotalBufferSize: &none, MaxResourceBufferSize: &none})
	if err != nil {
		return fmt.Errorf("Network.enable: %w", err)
	}
	return nil
}

// do runs f on the tab with a timeout, also stopped by ctx.
func (b *browser) do(ctx context.Context, timeout time.Duration, f func(ctx context.Context, t *chromedp.Target) error) error {
	cctx, cancel := context.WithTimeout(b.tab, timeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	return chromedp.Do(cctx, chromedp.Func(f))
}

// throttle applies the 9 Mbit/s / 40 ms link to every request of the tab.
// Chromium 14x replaced Network.emulateNetworkConditions with the "by rule"
// command; the old one is the fallback for older browsers.
func throttle(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{
			Latency: throttleLatency, DownloadThroughput: throttleDown, UploadThroughput: throttleUp,
		}},
	})
	if err == nil {
		return nil
	}
	_, err2 := cdp.Call(ctx, t, legacyEmulateNetworkConditions, legacyConditions{
		Latency: throttleLatency, DownloadThroughput: throttleDown, UploadThroughput: throttleUp,
	})
	if err2 != nil {
		return fmt.Errorf("throttling the network: %w (legacy command: %w)", err, err2)
	}
	return nil
}

// legacyEmulateNetworkConditions is the command cdproto no longer
// generates, for browsers without emulateNetworkConditionsByRule.
var legacyEmulateNetworkConditions = cdp.Command[legacyConditions, cdp.Empty]{Method: "Network.emulateNetworkConditions"}

type legacyConditions struct {
	Offline            bool    `json:"offline"`
	Latency            float64 `json:"latency"`
	DownloadThroughput float64 `json:"downloadThroughput"`
	UploadThroughput   float64 `json:"uploadThroughput"`
}

// waitSWCached waits (bounded) until go-app's service worker has cached
// the page and app.wasm, so the server has seen its precache requests.
func (b *browser) waitSWCached(ctx context.Context, wasmURL string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		ok, err := call[bool](ctx, b, stepTimeout, swCachedJS, wasmURL)
		if err == nil && ok {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(100 * time.Millisecond):
		}
	}
	return false
}

// timing is one interaction as act.js measured it, in ms from the action.
type timing struct {
	At      float64 `json:"at"` // the page's clock at the action, to order it with the page's own stamps
	Handler float64 `json:"handler"`
	DOM     float64 `json:"dom"`
	Frame   float64 `json:"frame"`
	Painted float64 `json:"painted"`
}

func (b *browser) act(ctx context.Context, kind string, n, settleFrames int) ([]timing, error) {
	timeout := time.Duration(n)*actTimeout + stepTimeout
	return call[[]timing](ctx, b, timeout, actJS, kind, n, settleFrames, actTimeout.Milliseconds())
}

// memInfo is what memory.js returns.
type memInfo struct {
	GC          bool    `json:"gc"`
	JSHeapUsed  float64 `json:"jsHeapUsed"`
	JSHeapTotal float64 `json:"jsHeapTotal"`
	WasmMemory  float64 `json:"wasmMemory"`
	DOMNodes    float64 `json:"domNodes"`
	GridCells   float64 `json:"gridCells"`
	LogRows     float64 `json:"logRows"`
	URLBytes    float64 `json:"urlBytes"`
	Summary     string  `json:"summary"`
}

func (b *browser) memory(ctx context.Context) (memInfo, error) {
	return call[memInfo](ctx, b, stepTimeout, memoryJS)
}

// replayTiming is what replay.js returns: the Replay panel's own figures.
type replayTiming struct {
	ElapsedMs      float64 `json:"elapsedMs"`
	LongestSliceMs float64 `json:"longestSliceMs"`
}

// replay replays a sample in the page as opened (replay.js).
func (b *browser) replay(ctx context.Context, sample, source string) (replayTiming, error) {
	return call[replayTiming](ctx, b, replayTimeout+5*time.Second, replayJS, sample, source, replayTimeout.Milliseconds())
}

// poolMapMeasure is the User Timing name of one drawing of the pool map
// (web/pool/poolmap.go): the pixels in one pass, one copy, the leak call-outs.
const poolMapMeasure = "kvleak:pool-map"

// mapDraws reads how long each drawing of the pool map took, in ms.
func (b *browser) mapDraws(ctx context.Context) ([]float64, error) {
	return call[[]float64](ctx, b, stepTimeout,
		`() => performance.getEntriesByName("`+poolMapMeasure+`", "measure").map(e => e.duration)`)
}
