package web

import (
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// addressBar writes the run's query into the address bar after the frame
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
// set runs on go-app's goroutine; the browser's callbacks (the paint's, the
// listeners') on the one syscall/js gives them, hence the atomic.
type addressBar struct {
	pending atomic.Pointer[string]
	page    app.Page
	paint   *afterPaint // writes the pending query after the next paint
	flush   app.Func    // writes the pending query: pagehide, visibilitychange
	stop    func()
}

// newAddressBar writes through page; stop writes what is pending and
// releases its callbacks. Before a pagehide or visibilitychange writes
// what is pending, catchUp gives it the page's state, if the page has not
// yet (apply.go).
func newAddressBar(page app.Page, catchUp func()) *addressBar {
	a := &addressBar{page: page}
	a.paint = newAfterPaint(a.write)
	a.flush = app.FuncOf(func(app.Value, []app.Value) any {
		catchUp()
		a.write()
		return nil
	})
	win, doc := a.paint.win, a.paint.doc
	win.Call("addEventListener", "pagehide", a.flush)
	doc.Call("addEventListener", "visibilitychange", a.flush)
	a.stop = func() {
		a.write()
		win.Call("removeEventListener", "pagehide", a.flush)
		doc.Call("removeEventListener", "visibilitychange", a.flush)
		a.flush.Release()
		a.paint.release()
	}
	return a
}

// set makes query the address bar's, after the next paint, or at once in
// a hidden page or when painted says the paint that shows it is done; a
// held one waits for release (a drag of the timeline, apply.go), another
// set, or the page being hidden or left.
func (a *addressBar) set(query string, held, painted bool) {
	a.pending.Store(&query)
	switch {
	case held:
	case painted:
		a.write()
	default:
		a.release()
	}
}

// release writes the pending query, if any, after the next paint, or at
// once in a hidden page.
func (a *addressBar) release() {
	if a.pending.Load() != nil && !a.paint.schedule() {
		a.write()
	}
}

// write puts the pending query, if any, into the address bar without
// navigating.
func (a *addressBar) write() {
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
