package main

import (
	"os"
	"testing"
)

// chromiumForTest is the Chromium the browser tests drive; without one the
// test is skipped, or fails under CI, where it must run.
func chromiumForTest(t *testing.T) string {
	t.Helper()
	exe, err := findChromium("")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	return exe
}
