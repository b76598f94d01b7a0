package web

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/internal/jsonlite"
	"kvleak/web/model"
)

// runExport is a run as the file Export JSON downloads.
type runExport struct {
	data        []byte
	ops, events int
}

func newRunExport(s *model.Session) (runExport, error) {
	data, err := jsonlite.MarshalIndent(s.Engine().Export(s.Ops()), "", "  ")
	return runExport{data, len(s.Ops()), s.Steps()}, err
}

// onExport downloads the run as kvleak-run.json.
func (c *sharePanel) onExport(ctx app.Context, e app.Event) {
	run, err := c.export()
	if err != nil {
		c.say("Export failed: "+err.Error(), true)
		return
	}
	download("kvleak-run.json", run.data)
	c.say(fmt.Sprintf("Exported %d operations and %d events as kvleak-run.json.", run.ops, run.events), false)
}

// download hands JSON data to the browser as a file called name.
func download(name string, data []byte) {
	win := app.Window()
	blob := win.Get("Blob").New([]any{string(data)}, map[string]any{"type": "application/json"})
	href := win.Get("URL").Call("createObjectURL", blob)
	a := win.Get("document").Call("createElement", "a")
	a.Set("href", href)
	a.Set("download", name)
	a.Call("click")
	win.Get("URL").Call("revokeObjectURL", href)
}

// onImportFile reads the chosen file and loads its run. A bad file changes
// nothing and says why.
func (c *sharePanel) onImportFile(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	files := input.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	file := files.Index(0)
	defer input.Set("value", "") // choosing the same file again fires again
	if size := file.Get("size").Int(); size > engine.MaxRunFileBytes {
		c.say(fmt.Sprintf("That file is %s bytes; at most %s are read.", engine.Thousands(int64(size)), engine.Thousands(engine.MaxRunFileBytes)), true)
		return
	}
	var done, failed app.Func
	release := func() { done.Release(); failed.Release() }
	done = app.FuncOf(func(this app.Value, args []app.Value) any {
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) {
			defer reportPanic(ctx)
			ops, err := c.onImport(ctx, []byte(text))
			if err != nil {
				c.say("Nothing was loaded: "+err.Error(), true)
				return
			}
			c.say(fmt.Sprintf("Loaded a run of %d operations.", ops), false)
		})
		release()
		return nil
	})
	failed = app.FuncOf(func(this app.Value, args []app.Value) any {
		ctx.Dispatch(func(ctx app.Context) { c.say("Nothing was loaded: the file could not be read.", true) })
		release()
		return nil
	})
	file.Call("text").Call("then", done, failed)
}
