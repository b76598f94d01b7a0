package dom

import (
	"sync/atomic"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// AfterPaint runs a function once the next frame has been painted: a task
// posted from an animation frame's callback runs after that frame's style,
// layout and paint. It is a message on a channel of its own, not a timeout:
// Chromium let a timeout wait two or three frames after a large change. The
// work it carries (the address bar, the panels that follow a change) is kept
// out of the task the reader waits on.
// Requests made before it runs are one run. Chromium paints no frame in a
// hidden page, so there Schedule says no and the caller works at once.
//
// The function runs on the goroutine syscall/js gives the browser's
// callbacks, not go-app's: hence the atomic, and callers that hand work to
// go-app through Dispatch.
type AfterPaint struct {
	win, doc app.Value
	port     app.Value // posts the message whose handler (run) runs fn
	recv     app.Value // the channel's other end, where run listens
	due      atomic.Bool
	run      app.Func // the message's handler: runs fn
	frame    app.Func // the animation frame's callback: posts the message
}

// NewAfterPaint is the scheduler of fn; Stop frees it.
func NewAfterPaint(fn func()) *AfterPaint {
	win := app.Window()
	a := &AfterPaint{win: win, doc: win.Get("document")}
	a.run = app.FuncOf(func(app.Value, []app.Value) any {
		a.due.Store(false)
		fn()
		return nil
	})
	ch := win.Get("MessageChannel").New()
	a.recv, a.port = ch.Get("port1"), ch.Get("port2")
	a.recv.Set("onmessage", a.run)
	a.frame = app.FuncOf(func(app.Value, []app.Value) any {
		a.port.Call("postMessage", 0)
		return nil
	})
	return a
}

// Schedule asks for a run after the next paint. It reports false, and asks
// for nothing, in a hidden page.
func (a *AfterPaint) Schedule() bool {
	if a.hidden() {
		return false
	}
	if !a.due.Swap(true) {
		a.win.Call("requestAnimationFrame", a.frame)
	}
	return true
}

// hidden reports whether the page is hidden, where no frame is painted.
func (a *AfterPaint) hidden() bool { return a.doc.Get("hidden").Bool() }

// Stop frees the callbacks; a run still due does not happen.
func (a *AfterPaint) Stop() {
	a.recv.Set("onmessage", nil) // a message in flight finds no released func
	a.recv.Call("close")
	a.port.Call("close")
	a.run.Release()
	a.frame.Release()
}
