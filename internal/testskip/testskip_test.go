package testskip

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A skip is noted in the log, name and why, and under CI the test fails
// instead.
func TestSkipIsNotedAndFailsUnderCI(t *testing.T) {
	log := filepath.Join(t.TempDir(), "skips.txt")
	t.Setenv("KVLEAK_SKIP_LOG", log)
	t.Setenv("CI", "")
	var skipped, failed bool
	run := func(name string, f func(testing.TB, string)) {
		done := make(chan struct{})
		ft := &fakeT{TB: t, name: name}
		go func() { // Skip and Fatal end the goroutine, as in a test
			defer close(done)
			f(ft, "no widget here")
		}()
		<-done
		skipped, failed = ft.skipped, ft.failed
	}
	run("TestA", Skip)
	assert.True(t, skipped)
	run("TestB/sub", Need)
	assert.True(t, skipped)
	assert.False(t, failed)
	b, err := os.ReadFile(log)
	require.NoError(t, err)
	assert.Equal(t, "TestA\tno widget here\nTestB/sub\tno widget here\n", string(b))

	t.Setenv("CI", "true")
	run("TestC", Need)
	assert.True(t, failed, "under CI a missing need fails")
	assert.False(t, skipped)
	b, err = os.ReadFile(log)
	require.NoError(t, err)
	assert.NotContains(t, string(b), "TestC")
}

// fakeT records Skip and Fatal, ending its goroutine as testing.T does.
type fakeT struct {
	testing.TB
	name            string
	skipped, failed bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Name() string          { return f.name }
func (f *fakeT) Skip(...any)           { f.skipped = true; runtime.Goexit() }
func (f *fakeT) Fatal(...any)          { f.failed = true; runtime.Goexit() }
func (f *fakeT) Errorf(string, ...any) { f.failed = true }
