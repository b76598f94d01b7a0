package server

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lockedBuffer is written by server goroutines and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestAccessLogOneLinePerRequest(t *testing.T) {
	fx := buildSite(t, 4096)
	var log lockedBuffer
	addr := startServer(t, Options{Dir: fx.dir, AccessLog: &log}, Timeouts{})
	tests := []struct {
		method, target, accept, wantLine string
	}{
		{"GET", "/web/app.wasm", "", `^\S+ GET /web/app.wasm 200 4096 \S+s$`},
		{"HEAD", "/", "", `^\S+ HEAD / 200 0 \S+s$`},
		{"GET", "/nope", "", `^\S+ GET /nope 404 14 \S+s$`},
		{"POST", "/", "", `^\S+ POST / 405 23 \S+s$`},
		{"GET", "/app.js", "br", `^\S+ GET /app.js 200 \d+ \S+s$`},
	}
	lines := func() []string {
		s := strings.TrimSuffix(log.String(), "\n")
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	for i, tc := range tests {
		resp, _ := do(t, tc.method, "http://"+addr+tc.target, map[string]string{"Accept-Encoding": tc.accept})
		require.NotZero(t, resp.StatusCode)
		// The line is written when the handler returns, which can be just
		// after the client has the whole response.
		require.Eventually(t, func() bool { return len(lines()) >= i+1 }, 2*time.Second, 5*time.Millisecond)
		got := lines()
		require.Len(t, got, i+1, "exactly one line per request")
		assert.Regexp(t, tc.wantLine, got[i])
	}
}

func TestAccessLogTruncatesLongPaths(t *testing.T) {
	fx := buildSite(t, 16)
	var log lockedBuffer
	addr := startServer(t, Options{Dir: fx.dir, AccessLog: &log}, Timeouts{})
	rawRequest(t, addr, "GET", "/"+strings.Repeat("a", 1100))
	require.Eventually(t, func() bool { return strings.Contains(log.String(), " 414 ") }, 2*time.Second, 5*time.Millisecond)
	assert.Less(t, len(log.String()), maxLoggedPath+100)
}
