package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// Timeouts bound what one connection may cost the server.
type Timeouts struct {
	ReadHeader     time.Duration // slow-header (slowloris) cutoff
	Read           time.Duration // whole request; GET/HEAD have no body
	Write          time.Duration // whole response; generous for the multi-MB wasm on slow links
	Idle           time.Duration // keep-alive between requests
	MaxHeaderBytes int
}

// DefaultTimeouts are the values cmd/serve uses.
func DefaultTimeouts() Timeouts {
	return Timeouts{
		ReadHeader:     5 * time.Second,
		Read:           10 * time.Second,
		Write:          2 * time.Minute,
		Idle:           60 * time.Second,
		MaxHeaderBytes: 64 << 10,
	}
}

// NewHTTPServer wraps h in an http.Server with t; zero fields of t take
// their DefaultTimeouts value, so tests can shorten just one.
func NewHTTPServer(h http.Handler, t Timeouts) *http.Server {
	d := DefaultTimeouts()
	pick := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	maxHeader := t.MaxHeaderBytes
	if maxHeader <= 0 {
		maxHeader = d.MaxHeaderBytes
	}
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: pick(t.ReadHeader, d.ReadHeader),
		ReadTimeout:       pick(t.Read, d.Read),
		WriteTimeout:      pick(t.Write, d.Write),
		IdleTimeout:       pick(t.Idle, d.Idle),
		MaxHeaderBytes:    maxHeader,
	}
}

// Listen opens addr before serving so a taken port is reported at once,
// with a message that says what to do.
func Listen(addr string) (net.Listener, error) {
	if err := ValidateAddr(addr); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("address %s is already in use (is another server running? choose another with -addr)", addr)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot listen on %s: %w", addr, err)
	}
	return ln, nil
}
