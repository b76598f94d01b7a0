package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"kvleak/internal/benchkit"
)

// cpuProfiler is the V8 sampling profiler of one tab (JS and wasm frames).
type cpuProfiler struct{ b *browser }

// profileInterval is the sampling interval in µs (V8's default is 1000).
const profileInterval = 100

func startProfiler(ctx context.Context, b *browser) (*cpuProfiler, error) {
	err := b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, profiler.Enable, cdp.Empty{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, t, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: profileInterval}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, t, profiler.Start, cdp.Empty{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("starting the CPU profiler: %w", err)
	}
	return &cpuProfiler{b: b}, nil
}

// stop ends the profile, writes it as a .cpuprofile (DevTools → Performance
// → Load profile) and returns its hottest functions.
func (p *cpuProfiler) stop(ctx context.Context, path string) ([]benchkit.FuncTime, error) {
	var prof *profiler.Profile
	err := p.b.do(ctx, stepTimeout, func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, profiler.Stop, cdp.Empty{})
		if err != nil {
			return err
		}
		prof = r.Profile
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("stopping the CPU profiler: %w", err)
	}
	j, err := json.Marshal(prof)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, j, 0o644); err != nil {
		return nil, err
	}
	nodes := make([]benchkit.ProfNode, len(prof.Nodes))
	for i, n := range prof.Nodes {
		name := "(anonymous)"
		if n.CallFrame != nil {
			if n.CallFrame.FunctionName != "" {
				name = n.CallFrame.FunctionName
			}
			if u := n.CallFrame.URL; u != "" {
				name += " (" + filepath.Base(u) + ")"
			}
		}
		nodes[i] = benchkit.ProfNode{ID: n.ID, Func: name, Children: n.Children}
	}
	return benchkit.SummarizeProfile(nodes, prof.Samples, prof.TimeDeltas), nil
}
