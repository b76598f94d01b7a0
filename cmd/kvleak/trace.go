package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"kvleak/engine"
	"kvleak/engine/trace"
	"kvleak/permalink"
)

const traceUsage = "usage: kvleak trace [-preset NAME | -link 'URL or query' | -file RUN.json] > run.trace.json"

var traceHelp = help{
	usage: traceUsage,
	about: `Trace writes a run as a Chrome Trace Event file for ui.perfetto.dev or
chrome://tracing: client, router, prefill and decode as processes, each
stage a slice, each transfer a flow, each pool's pages as counters — the
bytes the page's Export trace downloads. The run is one of a preset's, a
permalink's or an exported run file's (for a run too large for a link);
give at most one.`,
	example: "kvleak trace -preset glm-launch > run.trace.json",
	exit:    "0 written, 2 bad input.",
}

// runTrace writes a run as a trace for Perfetto (engine/trace): a preset's
// (the demo's when nothing is named), a permalink's — the bytes the page's
// Export trace downloads for it — or an exported run file's, for a run too
// large for a link.
func runTrace(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("trace")
	preset := fs.String("preset", "", "a preset's `slug`, such as glm-launch (default demo)")
	link := fs.String("link", "", "a permalink (`URL`), or its query: its run")
	file := fs.String("file", "", "a run file (`RUN.json`) from the page's Export JSON")
	if ok, code := traceHelp.parse(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 || fs.NFlag() > 1 {
		return traceHelp.fail(stderr, fs, "give at most one of -preset, -link and -file, and no arguments")
	}
	name, cfg, ops, err := traceRun(*preset, *link, *file)
	if err == nil {
		var data []byte
		if data, err = trace.Export(name, cfg, ops); err == nil {
			_, err = stdout.Write(data)
		}
	}
	if err != nil {
		return fail(stderr, err.Error())
	}
	return exitOK
}

// traceRun is the run to trace and its name, as the page names it: the
// preset it started from, else none (trace.RunName makes that "run").
func traceRun(preset, link, file string) (string, engine.Config, []engine.Op, error) {
	switch {
	case link != "":
		st, err := permalink.DecodeLink(linkQuery(link), nil)
		switch {
		case errors.Is(err, permalink.ErrNoState):
			return "", engine.Config{}, nil, errors.New("the link carries no run (it needs v= and preset= or op= keys)")
		case err != nil:
			return "", engine.Config{}, nil, fmt.Errorf("the link: %v", err)
		case st.Tab:
			return "", engine.Config{}, nil, errors.New("the link names a run kept in a browser tab (tab=1), which only that tab holds: export its trace there, or its run with Export JSON and pass it with -file")
		}
		return st.Preset, st.Config, st.Ops, nil
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", engine.Config{}, nil, err
		}
		_, f, err := engine.ImportRun(data)
		if err != nil {
			return "", engine.Config{}, nil, fmt.Errorf("%s: %v", file, err)
		}
		return "", f.Config, f.Ops, nil
	}
	if preset == "" {
		preset = "demo"
	}
	p, ok := engine.PresetBySlug(preset)
	if !ok {
		slugs, _ := engine.PresetNames()
		return "", engine.Config{}, nil, fmt.Errorf("unknown preset %q: one of %s", preset, strings.Join(slugs, ", "))
	}
	return p.Slug, p.Config, p.Ops, nil
}

// linkQuery is the query of a permalink given whole ("https://…/?v=4&…"),
// as "?v=4&…" or as the bare query.
func linkQuery(link string) string {
	if _, q, ok := strings.Cut(link, "?"); ok {
		link = q
	} else if strings.Contains(link, "://") {
		return ""
	}
	link, _, _ = strings.Cut(link, "#")
	return link
}
