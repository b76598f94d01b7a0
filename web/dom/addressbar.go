package dom

import (
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// AddressBar writes the run's query into the address bar after the frame
// that shows the change has been painted: history.replaceState is costly
// in Chromium, and what the reader waits for is the page, not the URL.
// Queries set in between are coalesced, so a scrub writes the last one
// only (Chromium also throttles a page that calls replaceState hundreds of
// times in a few seconds). A hidden page paints no frame, so there the
// query is written at once, and a pending one is written when the page is
// hidden (visibilitychange) or left (pagehide):
// the history entry a closed, cached or backgrounded page leaves behind
// (for a restored tab, Back, Forward) is the state on screen; a reader
// cannot reload within the frame it waits.
//
// Set runs on go-app's goroutine; the browser's callbacks (the paint's, the
// listeners') on the one syscall/js gives them, hence the atomic.
type AddressBar struct {
	pending atomic.Pointer[string]
	page    app.Page
	paint   *AfterPaint // writes the pending query after the next paint
	flush   app.Func    // writes the pending query: pagehide, visibilitychange
}

// NewAddressBar writes through page; Stop writes what is pending and
// frees its callbacks. Before a pagehide or visibilitychange writes what is
// pending, catchUp gives it the page's state, if the page has not yet.
func NewAddressBar(page app.Page, catchUp func()) *AddressBar {
	a := &AddressBar{page: page}
	a.paint = NewAfterPaint(a.write)
	a.flush = app.FuncOf(func(app.Value, []app.Value) any {
		catchUp()
		a.write()
		return nil
	})
	a.paint.win.Call("addEventListener", "pagehide", a.flush)
	a.paint.doc.Call("addEventListener", "visibilitychange", a.flush)
	return a
}

// Stop writes what is pending and frees the callbacks.
func (a *AddressBar) Stop() {
	a.write()
	a.paint.win.Call("removeEventListener", "pagehide", a.flush)
	a.paint.doc.Call("removeEventListener", "visibilitychange", a.flush)
	a.flush.Release()
	a.paint.Stop()
}

// Set makes query the address bar's, after the next paint, or at once in
// a hidden page or when painted says the paint that shows it is done; a
// held one waits for Release (a drag of the timeline), another Set, or the
// page being hidden or left.
func (a *AddressBar) Set(query string, held, painted bool) {
	a.pending.Store(&query)
	switch {
	case held:
	case painted:
		a.write()
	default:
		a.Release()
	}
}

// Release writes the pending query, if any, after the next paint, or at
// once in a hidden page.
func (a *AddressBar) Release() {
	if a.pending.Load() != nil && !a.paint.Schedule() {
		a.write()
	}
}

// write puts the pending query, if any, into the address bar without
// navigating.
func (a *AddressBar) write() {
	q := a.pending.Swap(nil)
	if q == nil {
		return
	}
	u := *a.page.URL()
	if u.RawQuery == *q {
		return
	}
	u.RawQuery = *q
	a.page.ReplaceURL(&u)
}
