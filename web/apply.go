package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// apply is the one path of every change the reader makes: it stops
// playback, applies the change to the session (which, on bad input, keeps
// the message beside the field and changes nothing else), leaves the state
// due in the address bar (writeDueURL) and lets the page render. A panic in the change is
// contained (crash.go): the run on screen stays, the page stays usable.
func (p *playground) apply(ctx app.Context, change func(*model.Session) error) error {
	return p.applyChange(ctx, change, false)
}

// applyDrag is apply for a move of the timeline's slider: the address bar
// waits for the drag to end (the slider's change event, onScrubEnd), or
// for any other change, or for the page to be hidden or left. A drag moves
// the step once a frame, and a write after each paint (history.replaceState)
// took the next frame's time, so a drag dropped frames.
func (p *playground) applyDrag(ctx app.Context, change func(*model.Session) error) error {
	return p.applyChange(ctx, change, true)
}

func (p *playground) applyChange(ctx app.Context, change func(*model.Session) error, dragged bool) error {
	defer p.contain(ctx)
	p.dragged, p.scrubbing = dragged, dragged
	p.s.HoldNames(dragged)
	p.s.Pause()
	widget.TestPanic("apply")
	err := change(p.s)
	p.urlDue = true
	p.scoreChallenge()
	return err
}

// writeDueURL puts the session's state in the address bar without
// navigating, if a change left it due, so that the URL is a permalink to
// what is on screen. The page's render calls it when it does not hold the
// late panels (a hidden page, the embed, the render that releases them),
// and their release after the paint does otherwise (lateviews.go): reading
// the query (and, for a long run, keeping it in the tab) is work the click's
// task need not wait for. The address bar writes it after the next paint
// (dom.AddressBar), or at once when painted says that paint is the one just
// done. A run too long for a
// link is kept in the tab's storage instead, and the address bar says so
// (model/tabrun.go).
func (p *playground) writeDueURL(painted bool) {
	if !p.urlDue {
		return
	}
	p.urlDue = false
	p.keptInTab = false
	if !p.s.Linkable() {
		data, err := p.s.TabRun()
		if err == nil {
			err = dom.Keep(dom.TabStorage, model.TabKey, data)
		}
		p.keptInTab = err == nil
	}
	if p.addr != nil { // browser only (OnMount)
		p.addr.Set(p.s.AddressQuery(), p.dragged, painted)
	}
}

// catchUpURL writes a due state into the address bar before the page is
// hidden or left (the address bar's pagehide and visibilitychange), where
// no paint may come. It runs on the goroutine syscall/js gives the
// browser's callbacks, so go-app's goroutine, idle while the browser runs
// the callback, reads the session, and this one waits for it (OnMount
// makes the address bar after p.self is set).
func (p *playground) catchUpURL() {
	done := make(chan struct{})
	p.self.Dispatch(func(app.Context) {
		defer close(done)
		p.writeDueURL(false)
	})
	<-done
}
