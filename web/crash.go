package web

import (
	"fmt"
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
	"kvleak/web/widget"
)

// A Go panic in wasm ends the program and leaves a page that looks alive
// and does nothing. Every path into the page's code therefore recovers:
// apply, the views a render reads, OnMount, OnNav, playback, and the
// children's own handlers (safe). The crash banner then offers the details
// and a reload; the run stays on screen and in the address bar.

// contain recovers a panic of the calling path: `defer p.contain(ctx)`.
func (p *playground) contain(ctx app.Context) {
	if r := recover(); r != nil {
		p.crash = crashDetails(fmt.Sprint(r), debug.Stack(), p.s)
		app.Log("kvleak: recovered:", p.crash)
	}
}

// crashDetails is what Copy details copies: the panic, where it happened
// and the permalink of the run on screen, for a bug report.
func crashDetails(panicText string, stack []byte, s *model.Session) string {
	link := "(no link: the run is too long)"
	func() {
		defer func() { _ = recover() }()
		if s.Linkable() {
			link = "?" + s.Query(s.View())
		}
	}()
	return fmt.Sprintf("panic: %s\nlink: %s\n\n%s", panicText, link, stack)
}

// handleCrash shows the banner for a child's contained panic.
func (p *playground) handleCrash(ctx app.Context, a app.Action) {
	if c, ok := a.Value.(widget.ChildPanic); ok {
		p.crash = crashDetails(c.Text, c.Stack, p.s)
	}
}
