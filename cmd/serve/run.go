package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"

	"kvleak/internal/server"
)

// Exit codes: 0 clean stop, 1 cannot serve, 2 bad command line.
const (
	exitOK    = 0
	exitServe = 1
	exitUsage = 2
)

// shutdownGrace bounds how long in-flight downloads may finish after a signal.
const shutdownGrace = 10 * time.Second

// run serves until ctx is cancelled and returns the exit code. Every
// failure is a single "serve: ..." line on stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return exitUsage
	}
	opts := server.Options{Dir: cfg.dir, Prefix: cfg.prefix, FrameAncestors: cfg.frameAncestors}
	if cfg.accessLog {
		opts.AccessLog = stderr
	}
	h, err := server.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return exitServe
	}
	ln, err := server.Listen(cfg.addr)
	if err != nil {
		fmt.Fprintf(stderr, "serve: %v\n", err)
		return exitServe
	}
	srv := server.NewHTTPServer(h, server.DefaultTimeouts())
	fmt.Fprintf(stdout, "serving %s at http://%s%s/ — Ctrl+C to stop\n", cfg.dir, ln.Addr(), cfg.prefix)

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "serve: %v\n", err)
			return exitServe
		}
		return exitOK
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		fmt.Fprintf(stderr, "serve: shutdown: %v\n", err)
		return exitServe
	}
	return exitOK
}
