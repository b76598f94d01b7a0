package e2e

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Defaults of the walk: `make test` runs this short one, `make soak` a long
// one with a fresh seed (see the Makefile).
const (
	soakDefaultSeed    = 20261201
	soakDefaultActions = 250
)

// TestSoak drives the real site with a seeded random walk over every
// control, key, import, link and history move, and fails on the first
// uncaught exception, console error, Go panic or dead page, naming the seed
// and the action. SOAK_SEED (a number, or "random") and SOAK_ACTIONS set
// the walk; the same seed replays the same plan. Timers (Play) race the
// walk, so a replay takes the same actions but may meet a slightly
// different page.
func TestSoak(t *testing.T) {
	t.Parallel()
	seed := soakEnv(t, "SOAK_SEED", soakDefaultSeed)
	n := int(soakEnv(t, "SOAK_ACTIONS", soakDefaultActions))
	t.Logf("soak: seed %d, %d actions (replay: SOAK_SEED=%d SOAK_ACTIONS=%d)", seed, n, seed, n)

	url := serveSite(t)
	b := newBrowser(t)
	w := &walker{b: b, base: strings.TrimSuffix(url, "/") + "/", files: soakFiles(t), logFiles: soakLogFiles(t), panics: watchPanics(b)}
	b.Open(url)

	start := time.Now()
	res := w.walk(soakPlan(seed, n))
	t.Logf("soak: %d actions in %s, seed %d, exceptions and errors: %d", res.done, time.Since(start).Round(time.Millisecond), seed, len(w.problems()))
	if res.failAt >= 0 {
		t.Fatalf("soak failed at or before action #%d of %d (seed %d; replay with SOAK_SEED=%d SOAK_ACTIONS=%d):\n%s\nlast actions:\n%s",
			res.failAt, n, seed, seed, res.failAt+1, res.failure, w.lastTrace(40))
	}
	if os.Getenv("SOAK_TRACE") != "" {
		t.Logf("trace:\n%s", strings.Join(w.trace, "\n"))
	}
}

// soakEnv reads a number from the environment; "random" picks one from the
// clock.
func soakEnv(t *testing.T, key string, def uint64) uint64 {
	v := os.Getenv(key)
	switch v {
	case "":
		return def
	case "random":
		return uint64(time.Now().UnixNano() % 1_000_000_000)
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		t.Fatalf("%s=%q: want a whole number or \"random\"", key, v)
	}
	return n
}
