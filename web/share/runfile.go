package share

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine"
	"kvleak/internal/jsonlite"
	"kvleak/web/dom"
	"kvleak/web/model"
	"kvleak/web/widget"
)

// RunExport is a run as the file Export JSON downloads.
type RunExport struct {
	data        []byte
	ops, events int
}

func NewRunExport(s *model.Session) (RunExport, error) {
	data, err := jsonlite.MarshalIndent(s.Engine().Export(s.Ops()), "", "  ")
	return RunExport{data, len(s.Ops()), s.Steps()}, err
}

// onExport downloads the run as kvleak-run.json.
func (c *sharePanel) onExport(ctx app.Context, e app.Event) {
	run, err := c.export()
	if err != nil {
		c.say("Export failed: "+err.Error(), true)
		return
	}
	dom.Download("kvleak-run.json", "application/json", run.data)
	c.say(fmt.Sprintf("Exported %d operations and %d events as kvleak-run.json.", run.ops, run.events), false)
}

// onImportFile reads the chosen file and loads its run. A bad file changes
// nothing and says why.
func (c *sharePanel) onImportFile(ctx app.Context, e app.Event) {
	file, size, ok := dom.ChosenFile(ctx)
	if !ok {
		return
	}
	defer dom.ClearChosen(ctx)
	if size > engine.MaxRunFileBytes {
		c.say(fmt.Sprintf("That file is %s bytes; at most %s are read.", engine.Thousands(int64(size)), engine.Thousands(engine.MaxRunFileBytes)), true)
		return
	}
	dom.ReadText(ctx, file, func(ctx app.Context, text string) {
		defer widget.ReportPanic(ctx)
		ops, err := c.onImport(ctx, []byte(text))
		if err != nil {
			c.say("Nothing was loaded: "+err.Error(), true)
			return
		}
		c.say(fmt.Sprintf("Loaded a run of %d operations.", ops), false)
	}, func(ctx app.Context) { c.say("Nothing was loaded: the file could not be read.", true) })
}
