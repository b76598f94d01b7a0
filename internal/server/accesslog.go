package server

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// accessLog writes one line per request: time, method, path, status,
// bytes, duration. The mutex keeps lines whole on any io.Writer.
type accessLog struct {
	mu  sync.Mutex
	out io.Writer
}

func newAccessLog(out io.Writer) *accessLog {
	if out == nil {
		return nil
	}
	return &accessLog{out: out}
}

// maxLoggedPath keeps a hostile 1 KB path from bloating the log.
const maxLoggedPath = 256

// wrap returns a writer that records the response; the handler defers its
// finish, which writes the line.
func (l *accessLog) wrap(w http.ResponseWriter, r *http.Request) *loggingWriter {
	return &loggingWriter{ResponseWriter: w, log: l, req: r, start: time.Now()}
}

func (l *accessLog) write(r *http.Request, status int, n int64, d time.Duration) {
	p := r.URL.EscapedPath() // percent-encoded: no spaces or newlines
	if len(p) > maxLoggedPath {
		p = p[:maxLoggedPath] + "..."
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.out, "%s %s %s %d %d %s\n",
		time.Now().UTC().Format(time.RFC3339), r.Method, p, status, n, d.Round(time.Microsecond))
}

type loggingWriter struct {
	http.ResponseWriter
	log    *accessLog
	req    *http.Request
	start  time.Time
	status int
	bytes  int64
}

func (w *loggingWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *loggingWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps the server's sendfile path when ServeContent copies a file.
func (w *loggingWriter) ReadFrom(src io.Reader) (int64, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := io.Copy(w.ResponseWriter, src)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *loggingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *loggingWriter) finish() {
	status := w.status
	if status == 0 {
		status = http.StatusOK
	}
	w.log.write(w.req, status, w.bytes, time.Since(w.start))
}
