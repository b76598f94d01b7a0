package server

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// Recorder is a ResponseWriter that records what the handler answered:
// the status and the body's size. The access log and the bench's traffic
// tally read it.
type Recorder struct {
	http.ResponseWriter
	Status int   // 0 until the handler writes; then what the client got
	Bytes  int64 // the body's bytes written so far
}

func (w *Recorder) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Recorder) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.Bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *Recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog writes one line per request: time, method, path, status,
// bytes, duration. The mutex keeps lines whole on any io.Writer.
type accessLog struct {
	mu  sync.Mutex
	out io.Writer
}

// maxLoggedPath keeps a hostile 1 KB path from bloating the log.
const maxLoggedPath = 256

func (l *accessLog) write(r *http.Request, w *Recorder, start time.Time) {
	p := r.URL.EscapedPath() // percent-encoded: no spaces or newlines
	if len(p) > maxLoggedPath {
		p = p[:maxLoggedPath] + "..."
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.out, "%s %s %s %d %d %s\n",
		time.Now().UTC().Format(time.RFC3339), r.Method, p, w.Status, w.Bytes, time.Since(start).Round(time.Microsecond))
}
