package web

import (
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
)

// shareState is what the share panel shows.
type shareState struct {
	link    string // the permalink just copied
	snippet string // the iframe snippet, once asked for
	msg     string // outcome of the last copy, export or import
	err     bool
	tooLong bool // the run is too long for a permalink
}

func (p *playground) renderShare() app.UI {
	sh := p.share
	return app.Section().Class("panel").Aria("labelledby", "share-h").Body(
		app.H2().ID("share-h").Text("Share and save"),
		app.Div().Class("row wrap").Body(
			app.Button().ID("copy-link").Type("button").Class("secondary").Text("Copy link").
				Title("Copy a link that replays this run").OnClick(p.onCopyLink),
			app.Button().ID("embed").Type("button").Class("secondary").Text("Embed").
				Title("Get an <iframe> snippet for your docs").OnClick(p.onEmbed),
			app.Button().ID("export").Type("button").Class("secondary").Text("Export JSON").OnClick(p.onExport),
			app.Label().For("import").Class("button secondary").Text("Import JSON"),
			app.Input().Type("file").ID("import").Class("visually-hidden").Accept("application/json,.json").OnChange(p.onImport),
		),
		app.If(sh.tooLong, func() app.UI {
			return app.P().ID("link-too-long").Class("notice").Text(tooLongMsg)
		}),
		app.If(sh.link != "", func() app.UI {
			return app.Div().Class("field").Body(
				app.Label().For("share-url").Text("Link to this run"),
				app.Input().Type("text").ID("share-url").ReadOnly(true).Value(sh.link),
			)
		}),
		app.If(sh.snippet != "", func() app.UI {
			return app.Div().Class("field").Body(
				app.Label().For("embed-snippet").Text("Embed snippet"),
				app.Textarea().ID("embed-snippet").ReadOnly(true).Rows(4).Text(sh.snippet),
			)
		}),
		app.If(sh.msg != "", func() app.UI {
			cls := "hint"
			if sh.err {
				cls = "field-error"
			}
			return app.P().ID("share-msg").Class(cls).Role("status").Text(sh.msg)
		}),
	)
}

// tooLongMsg explains why a long run has no permalink.
var tooLongMsg = fmt.Sprintf("This run has more than %d requests or %s bytes of state, too much for a link: use Export JSON to share it.",
	maxLinkOps, "16,384")

func (p *playground) onCopyLink(ctx app.Context, e app.Event) {
	if !p.linkable() {
		p.share.link, p.share.msg, p.share.err = "", tooLongMsg, true
		return
	}
	p.share.link = p.linkTo(ctx, false, false)
	p.share.msg, p.share.err = "Link ready below.", false
	clip := app.Window().Get("navigator").Get("clipboard")
	if clip.Truthy() {
		clip.Call("writeText", p.share.link)
		p.share.msg = "Link copied to the clipboard."
	}
}

func (p *playground) onEmbed(ctx app.Context, e app.Event) {
	if !p.linkable() {
		p.share.snippet, p.share.msg, p.share.err = "", tooLongMsg, true
		return
	}
	p.share.snippet = fmt.Sprintf(`<iframe src=%q title="KV-cache leak playground" width="100%%" height="720" style="border:0" loading="lazy"></iframe>`,
		p.linkTo(ctx, true, false))
	p.share.msg, p.share.err = "Paste the snippet into your page; it posts its height as {type: \""+heightMessage+"\", height}.", false
}

// onExport downloads the run as JSON.
func (p *playground) onExport(ctx app.Context, e app.Event) {
	data, err := json.MarshalIndent(p.s.eng.Export(p.s.ops), "", "  ")
	if err != nil {
		p.share.msg, p.share.err = "Export failed: "+err.Error(), true
		return
	}
	win := app.Window()
	blob := win.Get("Blob").New([]any{string(data)}, map[string]any{"type": "application/json"})
	href := win.Get("URL").Call("createObjectURL", blob)
	a := win.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", "kvleak-run.json")
	a.Call("click")
	win.Get("URL").Call("revokeObjectURL", href)
	p.share.msg, p.share.err = fmt.Sprintf("Exported %d operations and %d events as kvleak-run.json.", len(p.s.ops), len(p.s.eng.Events())), false
}

// onImport loads a file exported earlier. A bad file changes nothing.
func (p *playground) onImport(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	if size := file.Get("size").Int(); size > engine.MaxRunFileBytes {
		p.share.msg, p.share.err = fmt.Sprintf("That file is %s bytes; at most %s are read.", engine.Thousands(int64(size)), engine.Thousands(engine.MaxRunFileBytes)), true
		input.Set("value", "")
		return
	}
	var done, failed app.Func
	release := func() { done.Release(); failed.Release() }
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) {
			p.importRun([]byte(text))
			p.sync(ctx)
		})
		release()
		return nil
	})
	failed = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) {
			p.share.msg, p.share.err = "Nothing was loaded: the file could not be read.", true
		})
		release()
		return nil
	})
	file.Call("text").Call("then", done, failed)
	input.Set("value", "")
}

func (p *playground) importRun(data []byte) {
	if err := p.s.importRun(data); err != nil {
		p.share.msg, p.share.err = "Nothing was loaded: "+err.Error(), true
		return
	}
	p.share.msg, p.share.err = fmt.Sprintf("Loaded a run of %d operations.", len(p.s.ops)), false
}
