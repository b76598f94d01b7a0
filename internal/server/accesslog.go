package server

import (
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"kvleak/internal/httprecord"
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
	return &loggingWriter{Writer: httprecord.New(w), log: l, req: r, start: time.Now()}
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
	*httprecord.Writer
	log   *accessLog
	req   *http.Request
	start time.Time
}

func (w *loggingWriter) finish() {
	w.log.write(w.req, w.Status(), w.Bytes(), time.Since(w.start))
}
