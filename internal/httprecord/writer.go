// Package httprecord wraps an http.ResponseWriter to record what a handler
// answered: the status and the body's size. The server's access log and the
// benchmark's traffic tally both read it.
package httprecord

import (
	"io"
	"net/http"
)

// Writer records the status and the bytes written through it.
type Writer struct {
	http.ResponseWriter
	status int
	bytes  int64
}

// New wraps w.
func New(w http.ResponseWriter) *Writer { return &Writer{ResponseWriter: w} }

// Status is the status sent: 200 when the handler wrote without one.
func (w *Writer) Status() int {
	if w.status == 0 {
		return http.StatusOK
	}
	return w.status
}

// Bytes is the size of the body written so far.
func (w *Writer) Bytes() int64 { return w.bytes }

func (w *Writer) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// ReadFrom keeps the server's sendfile path when ServeContent copies a file.
func (w *Writer) ReadFrom(src io.Reader) (int64, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := io.Copy(w.ResponseWriter, src)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }
