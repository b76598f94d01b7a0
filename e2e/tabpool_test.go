package e2e

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A tab's first page load costs about 2.1 s on this 2-core machine and a
// later one in the same tab about 0.8 s: the renderer that compiled the
// wasm keeps it. Tests therefore borrow tabs: a test's tab is given back
// when it ends, put back on about:blank with the emulation reset, and the
// next test opens its own server's page in it. Tests stay apart because
// every server of the run listens on a port no earlier server had
// (listenFresh), so each test's pages are an origin of their own, with
// their own storage, service workers and permissions. A tab whose test
// failed, or that a test marked (browser.discard), is closed instead.
type pooledTab struct {
	ctx    context.Context
	cancel context.CancelFunc
	owner  atomic.Pointer[browser] // nil while idle: its events are dropped
}

// tabPool holds the idle tabs. It keeps at most maxIdle: more tabs than
// tests running side by side would only hold memory.
type tabPool struct {
	mu   sync.Mutex
	idle []*pooledTab
}

const maxIdle = 6

var tabs tabPool

// openTab opens a tab in a new browser context of browserCtx.
func openTab(browserCtx context.Context) (*pooledTab, error) {
	tab := &pooledTab{}
	tab.ctx, tab.cancel = chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext(),
		chromedp.WithListener(tab.listen)) // from the tab's first event on
	if err := chromedp.Do(tab.ctx); err != nil {
		tab.cancel()
		return nil, err
	}
	return tab, nil
}

func (tab *pooledTab) listen(ev any) {
	if b := tab.owner.Load(); b != nil {
		b.record(ev)
	}
}

// take returns an idle tab whose browser is still running, or nil.
func (p *tabPool) take() *pooledTab {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.idle) > 0 {
		tab := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		if tab.ctx.Err() == nil {
			return tab
		}
		tab.cancel()
	}
	return nil
}

// put keeps tab for the next test, or closes it when the pool is full.
func (p *tabPool) put(tab *pooledTab) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) >= maxIdle {
		tab.cancel()
		return
	}
	p.idle = append(p.idle, tab)
}

// closeAll closes the idle tabs (TestMain, before the browser).
func (p *tabPool) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tab := range p.idle {
		tab.cancel()
	}
	p.idle = nil
}

// giveBack ends b's loan: the tab goes back to the pool once it shows
// about:blank at the default viewport, media and focus, or is closed if
// that fails or the test failed or marked it.
func (b *browser) giveBack() {
	tab := b.tab
	tab.owner.Store(nil)
	if b.t.Failed() || b.discard || alone(tab) != nil || reset(tab.ctx) != nil {
		tab.cancel()
		return
	}
	tabs.put(tab)
}

// alone fails if the test left other pages open in the tab's browser
// context (window.open, a link in a new tab): they would run on beside the
// next test.
func alone(tab *pooledTab) error {
	ctx, cancel := context.WithTimeout(tab.ctx, 10*time.Second)
	defer cancel()
	infos, err := chromedp.Targets(ctx)
	if err != nil {
		return err
	}
	c := chromedp.FromContext(tab.ctx)
	for _, info := range infos {
		if info.BrowserContextID == c.BrowserContextID && info.Type == "page" && info.TargetID != c.Target.TargetID {
			return fmt.Errorf("another page is open: %s", info.URL)
		}
	}
	return nil
}

// reset undoes what a test may have set on its tab's page and emulation.
func reset(tabCtx context.Context) error {
	ctx, cancel := context.WithTimeout(tabCtx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("about:blank")); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{}); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{}})
	return err
}

// usedPorts are the loopback ports that servers of this run have had.
var usedPorts struct {
	sync.Mutex
	m map[string]bool
}

// listenFresh listens on a loopback port that no earlier server of this
// run had, so that no test's page shares an origin (and with it storage
// or a service worker) with an earlier test's in a borrowed tab.
func listenFresh(t testing.TB) net.Listener {
	t.Helper()
	usedPorts.Lock()
	defer usedPorts.Unlock()
	if usedPorts.m == nil {
		usedPorts.m = map[string]bool{}
	}
	var stale []net.Listener
	defer func() {
		for _, ln := range stale {
			ln.Close()
		}
	}()
	for range 100 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		if !usedPorts.m[port] {
			usedPorts.m[port] = true
			return ln
		}
		stale = append(stale, ln) // held open until a fresh one is found
	}
	t.Fatal("no fresh loopback port in 100 tries")
	return nil
}

// stubServer is httptest.NewServer on a fresh port, closed when t ends.
func stubServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Listener.Close()
	srv.Listener = listenFresh(t)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}
