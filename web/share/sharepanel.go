package share

import (
	"fmt"
	"html"
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/permalink"
	"kvleak/web/dom"
	"kvleak/web/widget"
)

// ShareLinks is what the share panel needs to know of the run's link.
type ShareLinks struct {
	Linkable   bool   // the run fits in a link
	KeptInTab  bool   // too long for one, it is kept in the tab's storage
	Query      string // the run's permalink query
	EmbedQuery string // the same with embed=1
}

// sharePanel copies a link, makes an embed snippet, exports and imports a
// run. What it shows of its last action (the link, the snippet, a message)
// is its own state.
type sharePanel struct {
	app.Compo

	ILinks ShareLinks

	link    string
	snippet string
	embed   embedChoice // the snippet's options, once asked for
	msg     string
	err     bool

	export      func() (RunExport, error)
	exportTrace func() (TraceExport, error)
	onImport    func(ctx app.Context, data []byte) (ops int, err error)
}

func NewSharePanel() *sharePanel { return &sharePanel{} }

func (c *sharePanel) Links(v ShareLinks) *sharePanel { c.ILinks = v; return c }

// OnExport gives the run to download.
func (c *sharePanel) OnExport(fn func() (RunExport, error)) *sharePanel { c.export = fn; return c }

// OnExportTrace gives the run's trace to download (tracefile.go).
func (c *sharePanel) OnExportTrace(fn func() (TraceExport, error)) *sharePanel {
	c.exportTrace = fn
	return c
}

// OnImport loads a file's run and returns its length in operations; an
// error says why nothing changed.
func (c *sharePanel) OnImport(fn func(app.Context, []byte) (int, error)) *sharePanel {
	c.onImport = fn
	return c
}

// tooLongMsg explains why a long run has no permalink.
var tooLongMsg = fmt.Sprintf("This run is too much for a link (more than %d requests, %s bytes of state or %s pages touched): use Export JSON to share it.",
	permalink.MaxLinkOps, engine.Thousands(permalink.MaxQueryBytes), engine.Thousands(engine.MaxReplayWork))

func (c *sharePanel) Render() app.UI {
	widget.CountRender("sharePanel")
	// A section below the run, as widget.Section, its heading focusable
	// from script: "Share / Embed" by the intro leads here.
	return app.Details().ID("share").Class("panel section").Open(true).Aria("labelledby", "share-h").Body(
		// Fixed markup is raw, and the buttons' clicks reach one handler on
		// their row (onClick): it costs the wasm a fraction of go-app's
		// element calls (docs/performance.md).
		app.Raw(`<summary><h2 id="share-h" tabindex="-1">Share, embed, save and trace export</h2></summary>`),
		app.Div().Class("row wrap").OnClick(widget.Safe(c.onClick)).Body(
			app.Raw(`<button id="copy-link" type="button" class="secondary" data-act="share" data-v="" title="Copy a link that replays this run">Copy link</button>`),
			app.Raw(`<button id="embed" type="button" class="secondary" data-act="share" data-v="" title="Get an &lt;iframe&gt; snippet for your docs">Embed</button>`),
			app.Raw(`<button id="export" type="button" class="secondary" data-act="share" data-v="">Export JSON</button>`),
			app.Raw(`<button id="export-trace" type="button" class="secondary" data-act="share" data-v="" aria-describedby="export-trace-hint">Export trace (Perfetto)</button>`),
			app.Raw(`<label for="import" class="button secondary">Import JSON</label>`),
			app.Input().Type("file").ID("import").Class("visually-hidden").Accept("application/json,.json").OnChange(widget.Safe(c.onImportFile)),
		),
		app.Raw(`<p id="export-trace-hint" class="hint">`+html.EscapeString(traceHint)+`</p>`),
		app.If(!c.ILinks.Linkable, func() app.UI {
			kept := "It could not be kept in this tab either: export it before you leave the page."
			if c.ILinks.KeptInTab {
				kept = "It lives only in this tab: a reload or coming back restores it here; another tab or browser cannot open it."
			}
			return app.Raw(`<p id="link-too-long" class="notice">` + html.EscapeString(tooLongMsg+" "+kept) + `</p>`)
		}),
		app.If(c.link != "", func() app.UI {
			return app.Div().Class("field").Body(
				widget.Label("share-url", "Link to this run"),
				app.Input().Type("text").ID("share-url").ReadOnly(true).Value(c.link),
			)
		}),
		app.If(c.snippet != "", func() app.UI {
			return app.Div().Body(
				c.embedOptions(),
				app.Div().Class("field").Body(
					app.Div().Class("row label-row").Body(
						widget.Label("embed-snippet", "Embed snippet"),
						app.Button().ID("copy-snippet").Type("button").Class("secondary").Text("Copy").
							Aria("describedby", "embed-snippet").OnClick(widget.Safe(c.onCopySnippet)),
					),
					app.Textarea().ID("embed-snippet").ReadOnly(true).Rows(8).Text(c.snippet).
						OnFocus(widget.Safe(selectAll)).OnClick(widget.Safe(selectAll)),
				),
			)
		}),
		// An element, for go-app to resolve its link's path on a prefixed site.
		app.P().Class("hint").Body(
			app.Text("Embedding in a page that allows no inline script? "),
			app.A().ID("embed-example").Href("/embed-example.html").Target("_blank").Rel("noopener").Body(
				app.Text("A page that embeds the playground and sizes its frame"),
				app.Span().Class("visually-hidden").Text(" (opens a new tab)"), app.Span().Aria("hidden", "true").Text(" ↗"),
			),
			app.Text(" does it with a script file of its own: copy the two."),
		),
		app.If(c.msg != "", func() app.UI {
			cls := "hint"
			if c.err {
				cls = "field-error"
			}
			return app.P().ID("share-msg").Class(cls).Role("status").Text(c.msg)
		}),
	)
}

// onClick answers a click on one of the row's buttons (dom.Clicked).
func (c *sharePanel) onClick(ctx app.Context, e app.Event) {
	act, _, id := dom.Clicked(e)
	if act != "share" {
		return
	}
	switch id {
	case "copy-link":
		c.onCopyLink(ctx, e)
	case "embed":
		c.onEmbed(ctx, e)
	case "export":
		c.onExport(ctx, e)
	case "export-trace":
		c.onExportTrace(ctx, e)
	}
}

func (c *sharePanel) say(msg string, isErr bool) { c.msg, c.err = msg, isErr }

// absolute is a link to this page with query q.
func absolute(ctx app.Context, q string) string {
	u := ctx.Page().URL()
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawQuery: q}).String()
}

func (c *sharePanel) onCopyLink(ctx app.Context, e app.Event) {
	if !c.ILinks.Linkable {
		c.link = ""
		c.say(tooLongMsg, true)
		return
	}
	c.link = absolute(ctx, c.ILinks.Query)
	c.say("Link ready below.", false)
	dom.CopyText(ctx, c.link, func() { c.say("Link copied to the clipboard.", false) })
}

func (c *sharePanel) onEmbed(ctx app.Context, e app.Event) {
	if !c.ILinks.Linkable {
		c.snippet = ""
		c.say(tooLongMsg, true)
		return
	}
	c.snippet = c.embed.snippet(absolute(ctx, c.ILinks.EmbedQuery))
	c.say("Paste the snippet into your page. The frame posts its height as {type: \""+dom.HeightMessage+"\", height}; the snippet's script sizes the frame to it.", false)
}

func (c *sharePanel) onCopySnippet(ctx app.Context, e app.Event) {
	dom.CopyText(ctx, c.snippet, func() { c.say("Snippet copied to the clipboard.", false) })
}

// selectAll selects a read-only field's text, ready to copy by hand.
func selectAll(ctx app.Context, e app.Event) { dom.SelectText(ctx) }
