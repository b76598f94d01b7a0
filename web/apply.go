package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// apply is the one path of every change the reader makes: it stops
// playback, applies the change to the session (which, on bad input, keeps
// the message beside the field and changes nothing else), writes the state
// into the address bar and lets the page render. A panic in the change is
// contained (crash.go): the run on screen stays, the page stays usable.
func (p *playground) apply(ctx app.Context, change func(*model.Session) error) error {
	return p.applyChange(ctx, change, false)
}

// applyDrag is apply for a move of the timeline's slider: the address bar
// waits for the drag to end (the slider's change event, onScrubEnd), or
// for any other change, or for the page to be hidden or left. A drag moves
// the step once a frame, and the write after each paint (history.replaceState
// took about 3 ms in Chromium) took the next frame's time: a warm drag of
// 200 moves dropped 11-24 frames, and 1-3 with the write held.
func (p *playground) applyDrag(ctx app.Context, change func(*model.Session) error) error {
	return p.applyChange(ctx, change, true)
}

func (p *playground) applyChange(ctx app.Context, change func(*model.Session) error, dragged bool) error {
	defer p.contain(ctx)
	p.dragged = dragged
	p.s.Pause()
	testPanic("apply")
	err := change(p.s)
	p.writeURL(ctx)
	return err
}

// writeURL puts the session's state in the address bar without navigating,
// once the change is painted (addressbar.go), so that the URL is a
// permalink to what is on screen. A run too long for a link is kept in the
// tab's storage instead, and the address bar says so (model/tabrun.go).
func (p *playground) writeURL(ctx app.Context) {
	p.keptInTab = false
	if !p.s.Linkable() {
		data, err := p.s.TabRun()
		if err == nil {
			err = keepInTab(data)
		}
		p.keptInTab = err == nil
	}
	if p.addr == nil {
		p.addr = newAddressBar(ctx.Page())
		p.stops = append(p.stops, p.addr.stop)
	}
	p.addr.set(p.s.AddressQuery(), p.dragged)
}
