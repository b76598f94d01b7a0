// Package testskip skips a test that lacks something from outside the
// repository, and says so where make test looks: go test hides a skip's
// message without -v, so each is appended to the file $KVLEAK_SKIP_LOG
// names, as the test's name and why, and make test counts them at the end.
package testskip

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Skip notes t and why in $KVLEAK_SKIP_LOG, if set, and skips t.
func Skip(t testing.TB, why string) {
	t.Helper()
	if path := os.Getenv("KVLEAK_SKIP_LOG"); path != "" {
		if err := note(path, t.Name(), why); err != nil {
			t.Errorf("recording the skip in %s: %v", path, err)
		}
	}
	t.Skip("!!!!!!!! SKIPPED: " + why + " !!!!!!!!")
}

// Need fails t under CI (CI set), where what it lacks must be there, and
// skips it as Skip does anywhere else.
func Need(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	Skip(t, why)
}

func note(path, name, why string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s\t%s\n", name, why)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// PublishedTrace is the path of the published trace name, in the traces
// kept beside the repository (../shared/traces of the repository's root,
// which is root from the test's package); t skips without it. A clean clone
// has no such folder: static/traces/SOURCES.txt names the traces.
func PublishedTrace(t testing.TB, root, name string) string {
	t.Helper()
	p := filepath.Join(root, "..", "shared", "traces", name)
	if _, err := os.Stat(p); err != nil {
		Skip(t, "the published traces are not in ../shared/traces beside the repository (static/traces/SOURCES.txt names them)")
	}
	return p
}
