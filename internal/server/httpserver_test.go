package server

import (
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A slowloris client, whose header never ends, is dropped by the header
// timeout while a normal client is served. Read and Idle are an hour, so
// only ReadHeader can end the connection within the test's safety bound.
func TestSlowHeaderClientIsDroppedWhileOthersAreServed(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{ReadHeader: 300 * time.Millisecond, Read: time.Hour, Idle: time.Hour})

	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte("GET / HTTP/1.1\r\nHost: test\r\nX-Slow: "))
	require.NoError(t, err)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one more byte of a header value that never ends
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := conn.Write([]byte("a")); err != nil {
				return
			}
		}
	}()

	resp, body := do(t, "GET", "http://"+addr+"/", nil)
	require.Equal(t, 200, resp.StatusCode, "a normal client is served meanwhile")
	assert.Equal(t, fx.files["index.html"], body)

	// The server hangs up (Go answers a half-read request with a bare 400
	// and closes). The deadline only bounds a server that never does.
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
	got, err := io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) {
		require.False(t, ne.Timeout(), "the server must close the connection")
	}
	assert.True(t, err == nil || errors.Is(err, syscall.ECONNRESET), "got %v", err)
	assert.NotContains(t, string(got), " 200 ", "an unfinished request is never served")
}

func TestListenReportsTakenAddress(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer taken.Close()
	_, err = Listen(taken.Addr().String())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "already in use")

	_, err = Listen("nonsense")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "invalid -addr")
}

func TestNewHTTPServerTimeouts(t *testing.T) {
	d := DefaultTimeouts()
	tests := []struct {
		name       string
		in         Timeouts
		wantHeader time.Duration
		wantRead   time.Duration
		wantMax    int
	}{
		{"zero takes defaults", Timeouts{}, d.ReadHeader, d.Read, d.MaxHeaderBytes},
		{"override one", Timeouts{ReadHeader: 300 * time.Millisecond}, 300 * time.Millisecond, d.Read, d.MaxHeaderBytes},
		{"override max header", Timeouts{MaxHeaderBytes: 4096}, d.ReadHeader, d.Read, 4096},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := NewHTTPServer(nil, tc.in)
			assert.Equal(t, tc.wantHeader, srv.ReadHeaderTimeout)
			assert.Equal(t, tc.wantRead, srv.ReadTimeout)
			assert.Equal(t, d.Write, srv.WriteTimeout)
			assert.Equal(t, d.Idle, srv.IdleTimeout)
			assert.Equal(t, tc.wantMax, srv.MaxHeaderBytes)
		})
	}
}
