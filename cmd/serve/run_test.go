package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syncBuffer is written by run's goroutine and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func siteDir(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>kvleak</title>"), 0o644))
	return dir
}

func TestRunFailsFastWithOneLine(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	empty := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"bad prefix", []string{"-prefix", "x"}, exitUsage, "must start with /"},
		{"bad address", []string{"-addr", "nope"}, exitUsage, "invalid -addr"},
		{"missing folder", []string{"-dir", filepath.Join(empty, "missing")}, exitServe, "does not exist"},
		{"no index.html", []string{"-dir", empty}, exitServe, "has no index.html"},
		{"address taken", []string{"-dir", siteDir(t), "-addr", taken.Addr().String()}, exitServe, "already in use"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			code := run(ctx, tc.args, &stdout, &stderr)
			assert.Equal(t, tc.wantCode, code)
			assert.Regexp(t, `^serve: [^\n]*`+regexp.QuoteMeta(tc.wantErr)+`[^\n]*\n$`, stderr.String())
			assert.Empty(t, stdout.String())
		})
	}
}

func TestRunServesAndStopsCleanly(t *testing.T) {
	dir := siteDir(t)
	var stdout, stderr syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"-dir", dir, "-addr", "127.0.0.1:0", "-prefix", "/kvleak", "-access-log"}, &stdout, &stderr)
	}()

	start := regexp.MustCompile(`^serving (\S+) at http://(127\.0\.0\.1:\d+)/kvleak/ — Ctrl\+C to stop\n$`)
	require.Eventually(t, func() bool { return start.MatchString(stdout.String()) }, 5*time.Second, 10*time.Millisecond)
	m := start.FindStringSubmatch(stdout.String())
	assert.Equal(t, dir, m[1])

	resp, err := http.Get("http://" + m[2] + "/kvleak/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, string(body), "<title>kvleak</title>")
	// The access-log line follows the response by a moment.
	assert.Eventually(t, func() bool { return strings.Contains(stderr.String(), " GET /kvleak/ 200 ") }, 2*time.Second, 5*time.Millisecond)

	cancel() // what SIGINT/SIGTERM do through signal.NotifyContext
	select {
	case code := <-done:
		assert.Equal(t, exitOK, code)
	case <-time.After(shutdownGrace + 5*time.Second):
		t.Fatal("run did not stop after cancel")
	}
	assert.False(t, strings.Contains(stderr.String(), "serve: "), "no errors: %s", stderr.String())
}
