package web

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"html"

	"kvleak/web/dom"
	"kvleak/web/widget"
)

// linkBanner says why a link could not be opened.
type linkBanner struct {
	app.Compo

	IMessage  string
	onDismiss func(app.Context)
}

func newLinkBanner() *linkBanner { return &linkBanner{} }

func (b *linkBanner) Message(v string) *linkBanner { b.IMessage = v; return b }

// OnDismiss is called when the reader dismisses the banner. Callbacks are
// unexported fields on purpose (docs/design.md).
func (b *linkBanner) OnDismiss(fn func(app.Context)) *linkBanner { b.onDismiss = fn; return b }

func (b *linkBanner) Render() app.UI {
	widget.CountRender("linkBanner")
	return app.Div().ID("banner").Class("banner").Role("alert").Body(
		app.Raw(`<strong>`+html.EscapeString("This link could not be opened. ")+`</strong>`),
		app.Text(b.IMessage+" The default scenario is shown instead."),
		app.Button().Type("button").Class("link").Text("Dismiss").
			OnClick(widget.Safe(func(ctx app.Context, e app.Event) { b.onDismiss(ctx) })),
	)
}

// crashBanner says that something went wrong and that the run is kept,
// with the details to copy into a bug report.
type crashBanner struct {
	app.Compo

	IDetails  string
	copied    bool
	onDismiss func(app.Context)
}

func newCrashBanner() *crashBanner { return &crashBanner{} }

func (b *crashBanner) Details(v string) *crashBanner { b.IDetails = v; return b }

func (b *crashBanner) OnDismiss(fn func(app.Context)) *crashBanner { b.onDismiss = fn; return b }

func (b *crashBanner) Render() app.UI {
	widget.CountRender("crashBanner")
	copyText := "Copy details"
	if b.copied {
		copyText = "Details copied"
	}
	return app.Div().ID("crash").Class("banner").Role("alert").Body(
		app.Raw(`<strong>`+html.EscapeString("Something went wrong. ")+`</strong>`),
		app.Text("Your run is kept — Reload restores it. "),
		app.Button().ID("crash-reload").Type("button").Class("secondary").Text("Reload").
			OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }),
		app.Button().ID("crash-copy").Type("button").Class("secondary").Text(copyText).OnClick(b.onCopy),
		app.Button().ID("crash-dismiss").Type("button").Class("link").Text("Dismiss").
			OnClick(func(ctx app.Context, e app.Event) { b.onDismiss(ctx) }),
		app.Details().Body(
			app.Raw(`<summary>Details</summary>`),
			app.Pre().ID("crash-details").Text(b.IDetails),
		),
	)
}

func (b *crashBanner) onCopy(ctx app.Context, e app.Event) {
	dom.CopyText(ctx, b.IDetails, func() { b.copied = true })
}
