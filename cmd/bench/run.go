package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
)

// run measures and reports; it returns the exit code. Every failure is a
// "bench: ..." line on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	logf := func(format string, a ...any) { fmt.Fprintf(stderr, "bench: "+format+"\n", a...) }

	st, err := openSite(cfg.site)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return exitFail
	}
	if cfg.floor != "" && !cfg.phone {
		if err := checkFloor(cfg.floor); err != nil {
			fmt.Fprintf(stderr, "bench: %v\n", err)
			return exitFail
		}
	}
	exe, err := findChromium(cfg.chromium)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return exitFail
	}
	rep := newReport(cfg, st)
	rep.Cores = runtime.NumCPU()
	rep.Commit, rep.Dirty = gitCommit(ctx)
	rep.LoadAvg.Start = finitePtr(loadAvg())

	if !cfg.skipGo && !cfg.phone {
		logf("engine Go benchmarks (go test -bench, -count 5): about a minute")
		gb, raw, err := runGoBench(ctx)
		if err != nil {
			fmt.Fprintf(stderr, "bench: Go benchmarks: %v\n%s", err, tail(raw, 40))
			return exitFail
		}
		rep.GoBench = gb
	}

	url, tl, stopServer, err := serveSite(st)
	if err != nil {
		fmt.Fprintf(stderr, "bench: serving %s: %v\n", st.dir, err)
		return exitFail
	}
	defer stopServer()
	logf("serving %s at %s; %d cold runs in %s", st.dir, url, cfg.runs, exe)

	var runs []runResult
	for i := range cfg.runs {
		start := time.Now()
		r, err := measureRun(ctx, cfg, exe, url, st.prefix, tl, i, logf)
		if err != nil {
			fmt.Fprintf(stderr, "bench: run %d: %v\n", i+1, err)
			return exitFail
		}
		if rep.Chromium == "" {
			rep.Chromium = r.chromium
		}
		runs = append(runs, r)
		logf("run %d/%d done in %s", i+1, cfg.runs, time.Since(start).Round(time.Second))
	}
	rep.LoadAvg.End = finitePtr(loadAvg())
	rep.aggregate(runs)
	rep.evaluate()

	rep.printTable(stdout)
	if err := rep.write(cfg.out); err != nil {
		fmt.Fprintf(stderr, "bench: writing %s: %v\n", cfg.out, err)
		return exitFail
	}
	fmt.Fprintf(stdout, "\nwrote %s\n", cfg.out)
	return exitOK
}

func tail(s string, lines int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	if len(l) == 0 || l[0] == "" {
		return ""
	}
	return strings.Join(l, "\n") + "\n"
}
