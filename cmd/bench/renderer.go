package main

import (
	"context"
	"fmt"
	"os"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/systeminfo"
	"github.com/chromedp/chromedp"

	"kvleak/internal/benchkit"
)

// rendererMem is the Private_Dirty of the browser's renderer processes:
// the tab's page, its service worker, and any spare renderer Chromium
// keeps. performance.memory and the wasm memory see only parts of it (the
// JS heap, Go's linear memory), not the compiled code, DOM, style and
// layout data the renderer also holds.
type rendererMem struct {
	PrivateDirty float64 `json:"private_dirty"` // bytes, summed over the renderers
	Processes    int     `json:"processes"`
	Largest      float64 `json:"largest"` // the tab's own renderer, in practice
}

// rendererMemory asks the browser for its renderer pids (SystemInfo's
// process list) and reads each one's smaps_rollup; the bench runs Chromium
// as a child on this machine, so the pids are ours to read.
func (b *browser) rendererMemory(ctx context.Context) (rendererMem, error) {
	var m rendererMem
	cctx, cancel := context.WithTimeout(b.tab, stepTimeout)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	res, err := chromedp.CallBrowser(cctx, systeminfo.GetProcessInfo, cdp.Empty{})
	if err != nil {
		return m, fmt.Errorf("SystemInfo.getProcessInfo: %w", err)
	}
	for _, p := range res.ProcessInfo {
		if p.Type != "renderer" {
			continue
		}
		f, err := os.Open(fmt.Sprintf("/proc/%d/smaps_rollup", p.ID))
		if err != nil {
			return m, fmt.Errorf("renderer %d: %w", p.ID, err)
		}
		pd, err := benchkit.PrivateDirty(f)
		f.Close()
		if err != nil {
			return m, fmt.Errorf("renderer %d: %w", p.ID, err)
		}
		m.PrivateDirty += float64(pd)
		m.Largest = max(m.Largest, float64(pd))
		m.Processes++
	}
	if m.Processes == 0 {
		return m, fmt.Errorf("the browser listed no renderer process")
	}
	return m, nil
}
