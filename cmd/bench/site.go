package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	"kvleak/internal/server"
)

// site is a built site folder.
type site struct {
	dir     string
	prefix  string // "" or "/kvleak", as the site was generated
	built   time.Time
	wasmRaw int64 // web/app.wasm and its precompressed twins, as served
	wasmGz  int64
	wasmBr  int64
}

// manifestLink finds the manifest URL; go-app writes attributes in any
// order, hence the loose pattern (the same one the e2e tests use).
var manifestLink = regexp.MustCompile(`<link[^>]*href="([^"]*)/manifest\.webmanifest"`)

func openSite(dir string) (site, error) {
	s := site{dir: dir}
	index := filepath.Join(dir, "index.html")
	b, err := os.ReadFile(index)
	if err != nil {
		return s, fmt.Errorf("%s is missing: run `make site` first (make bench does): %w", index, err)
	}
	m := manifestLink.FindSubmatch(b)
	if m == nil {
		return s, fmt.Errorf("%s has no manifest link: not a go-app site?", index)
	}
	s.prefix = string(m[1])
	if fi, err := os.Stat(index); err == nil {
		s.built = fi.ModTime()
	}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"app.wasm", &s.wasmRaw}, {"app.wasm.gz", &s.wasmGz}, {"app.wasm.br", &s.wasmBr}} {
		fi, err := os.Stat(filepath.Join(dir, "web", f.name))
		if err != nil {
			return s, fmt.Errorf("site has no web/%s: %w", f.name, err)
		}
		*f.dst = fi.Size()
	}
	return s, nil
}

// served is one response as the server wrote it.
type served struct {
	Path     string `json:"path"`
	Status   int    `json:"status"`
	Encoding string `json:"encoding"`
	Bytes    int64  `json:"bytes"` // body bytes written
}

// tally records every response the in-process server writes: it sees the
// service worker's precache requests too, which the page's DevTools
// Network domain does not.
type tally struct {
	mu  sync.Mutex
	log []served
}

func (t *tally) take() []served {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.log
	t.log = nil
	return out
}

func (t *tally) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rw := &server.Recorder{ResponseWriter: w}
		h.ServeHTTP(rw, r)
		t.mu.Lock()
		t.log = append(t.log, served{Path: r.URL.Path, Status: rw.Status, Encoding: w.Header().Get("Content-Encoding"), Bytes: rw.Bytes})
		t.mu.Unlock()
	})
}

// serveSite serves the site as cmd/serve does, on a loopback port.
func serveSite(s site) (url string, t *tally, stop func(), err error) {
	h, err := server.New(server.Options{Dir: s.dir, Prefix: s.prefix})
	if err != nil {
		return "", nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, nil, err
	}
	t = &tally{}
	srv := server.NewHTTPServer(t.wrap(h), server.DefaultTimeouts())
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + s.prefix + "/", t, func() { srv.Close() }, nil
}
