// Command bench measures the playground against its performance budgets in
// real headless Chromium: bytes of a first visit, first contentful paint
// and time to interactive (on loopback and on a throttled 9 Mbit/s link),
// Send latency at the demo scale and at the 681,280-page launch pool,
// memory after 1,000 requests, and the engine's Go benchmarks.
//
// It serves the built site (make site) with internal/server in-process on
// 127.0.0.1, starts a fresh browser profile for every cold visit, prints a
// table with PASS/OVER per budget and writes build/bench.json. A budget
// that is OVER does not fail the command; only an error does.
//
//	go run ./cmd/bench [-runs 5] [-sends 20] [-site build/site] [-out build/bench.json] [-skip-go]
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
