package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
)

// The two reference pages start-up is measured against (cmd/bench/floor,
// built into build/floor by make bench): the smallest Go wasm page
// (syscall/js, a #send button) and the smallest go-app v10.1.11 page built
// the stock way. Each is visited cold in every run, beside the playground,
// so that a busy machine moves all three alike and the ratios hold.
var floorPages = []string{"plain", "goapp"}

// floorReady is "interactive" for a reference page: the document is
// parsed, its #send button is there and go-app's loader is gone (the plain
// page has none; go-app removes it once the wasm's main has mounted the
// page, and its HTML puts the loader after the prerendered #send).
const floorReady = `window.__benchReady = () => document.readyState !== "loading" && !!document.getElementById("send") && !document.getElementById("app-wasm-loader");`

// floorResult is one cold visit of a reference page.
type floorResult struct {
	Load     visit       `json:"load"`
	Send     []timing    `json:"send"`
	Renderer rendererMem `json:"renderer_mem_load"`
}

// checkFloor reports whether dir holds both built reference pages.
func checkFloor(dir string) error {
	for _, name := range floorPages {
		if _, err := os.Stat(filepath.Join(dir, name, "index.html")); err != nil {
			return fmt.Errorf("the reference page %s is missing: run `make bench` (it builds %s) or pass -floor '' to skip it: %w", name, dir, err)
		}
	}
	return nil
}

// serveDir serves a folder as a plain static server would (no compression:
// the reference pages are measured as their stock builds ship).
func serveDir(dir string) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir))}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}

// measureFloor visits one reference page cold: load, renderer memory at
// ready, then sends clicks of #send, each timed to the frame that painted it.
func measureFloor(ctx context.Context, exe, dir string, sends int) (floorResult, error) {
	r := floorResult{Load: visit{Times: notLoaded}}
	url, stop, err := serveDir(dir)
	if err != nil {
		return r, err
	}
	defer stop()
	b, err := newBrowser(ctx, exe)
	if err != nil {
		return r, err
	}
	defer b.close()
	if r.Load, err = b.load(ctx, url, false, floorReady); err != nil {
		return r, fmt.Errorf("visit: %w", err)
	}
	if r.Renderer, err = b.rendererMemory(ctx); err != nil {
		return r, fmt.Errorf("renderer memory: %w", err)
	}
	if r.Send, err = b.act(ctx, "send", sends, clickSettle); err != nil {
		return r, fmt.Errorf("sends: %w", err)
	}
	return r, nil
}
