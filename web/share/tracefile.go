package share

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/engine/trace"
	"kvleak/web/dom"
	"kvleak/web/model"
)

// traceHint is the one line under the share panel's buttons that says how
// to read the trace Export trace downloads.
const traceHint = "Export trace (Perfetto) downloads the run as a timeline of the client, the router and both servers: open it at ui.perfetto.dev (Open trace file) or in chrome://tracing."

// TraceExport is a run as the trace Export trace downloads: the bytes
// `kvleak trace -link` prints for the same link (engine/trace).
type TraceExport struct {
	data []byte
	name string
}

func NewTraceExport(s *model.Session) (TraceExport, error) {
	data, err := trace.Export(s.Preset(), s.Config(), s.Ops())
	return TraceExport{data, trace.FileName(s.Preset())}, err
}

// onExportTrace downloads the run's trace as kvleak-<preset or run>.trace.json.
func (c *sharePanel) onExportTrace(ctx app.Context, e app.Event) {
	tr, err := c.exportTrace()
	if err != nil {
		c.say("Export failed: "+err.Error(), true)
		return
	}
	dom.Download(tr.name, "application/json", tr.data)
	c.say("Exported the trace as "+tr.name+". "+trace.HowToOpen, false)
}
