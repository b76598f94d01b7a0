package e2e

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kvleak/engine/trace"
)

// TestExportTrace clicks Export trace (Perfetto) on the demo, receives the
// download, and checks that it is a trace naming both servers, byte for
// byte what `kvleak trace -link` prints for the same link.
func TestExportTrace(t *testing.T) {
	t.Parallel()
	site := serveSite(t)
	b := newBrowser(t)
	downloads := acceptDownloads(b)

	const query = "v=3&preset=demo"
	b.Open(site + "?" + query)
	waitView(b, "the demo", func(s pageView) bool { return s.Ready && s.Status != "" })
	hint := run(b, chromedp.Evaluate[string](`document.getElementById("export-trace-hint").textContent`))
	assert.Contains(t, hint, "ui.perfetto.dev")
	assert.Contains(t, hint, "chrome://tracing")

	b.Do(chromedp.Click(chromedp.ID("export-trace")))
	data := waitForDownload(t, filepath.Join(downloads, "kvleak-demo.trace.json"))
	s := waitView(b, "the export message", func(s pageView) bool { return strings.HasPrefix(s.ShareMsg, "Exported the trace") })
	assert.Equal(t, "Exported the trace as kvleak-demo.trace.json. "+trace.HowToOpen, s.ShareMsg)

	var f struct {
		TraceEvents []struct {
			Name, Ph string
			Args     map[string]any
		} `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(data, &f), "the download is JSON")
	var processes []any
	for _, ev := range f.TraceEvents {
		if ev.Ph == "M" && ev.Name == "process_name" {
			processes = append(processes, ev.Args["name"])
		}
	}
	assert.Subset(t, processes, []any{trace.ProcessPrefill, trace.ProcessDecode}, "the trace names both servers")

	cmd := exec.Command("go", "run", "./cmd/kvleak", "trace", "-link", site+"?"+query)
	cmd.Dir = repoRoot(t)
	cli, err := cmd.Output()
	require.NoError(t, err)
	assert.Equal(t, string(cli), string(data), "the CLI prints the page's bytes for the same link")
}
