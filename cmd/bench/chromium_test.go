package main

import (
	"testing"

	"kvleak/internal/testskip"
)

// chromiumForTest is the Chromium the browser tests drive; without one the
// test is skipped, or fails under CI, where it must run.
func chromiumForTest(t *testing.T) string {
	t.Helper()
	exe, err := findChromium("")
	if err != nil {
		testskip.Need(t, err.Error())
	}
	return exe
}
