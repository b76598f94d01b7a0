package server

import (
	"errors"
	"io"
	"net"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSlowHeaderClientIsDroppedWhileOthersAreServed(t *testing.T) {
	fx := buildSite(t, 1024)
	addr := startServer(t, Options{Dir: fx.dir}, Timeouts{ReadHeader: 300 * time.Millisecond, Read: 2 * time.Second})

	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	require.NoError(t, err)
	defer conn.Close()
	request := "GET / HTTP/1.1\r\nHost: test\r\nUser-Agent: slowloris\r\n\r\n"
	start := time.Now()
	stop := make(chan struct{})
	defer close(stop)
	var sent atomic.Int32
	go func() { // one byte per second until the server hangs up
		for i := range len(request) {
			if _, err := conn.Write([]byte{request[i]}); err != nil {
				return
			}
			sent.Add(1)
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
		}
	}()

	time.Sleep(100 * time.Millisecond)
	resp, body := do(t, "GET", "http://"+addr+"/", nil)
	require.Equal(t, 200, resp.StatusCode, "a normal client is served meanwhile")
	assert.Equal(t, fx.files["index.html"], body)

	// The server hangs up (Go answers a half-read request with a bare 400
	// and closes); our own read deadline must not be what ends this.
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(3*time.Second)))
	got, err := io.ReadAll(conn)
	elapsed := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) {
		require.False(t, ne.Timeout(), "the server must close the connection")
	}
	assert.True(t, err == nil || errors.Is(err, syscall.ECONNRESET), "got %v", err)
	assert.NotContains(t, string(got), " 200 ", "an unfinished request is never served")
	assert.Less(t, elapsed, 2*time.Second)
	assert.Less(t, int(sent.Load()), len(request))
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
