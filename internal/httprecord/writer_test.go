package httprecord

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWriterRecordsStatusAndBytes(t *testing.T) {
	rec := httptest.NewRecorder()
	w := New(rec)
	assert.Equal(t, http.StatusOK, w.Status(), "nothing written yet reads as 200")
	w.WriteHeader(http.StatusNotFound)
	w.WriteHeader(http.StatusTeapot) // a second status is not what the client got
	w.Write([]byte("four"))
	n, err := w.ReadFrom(strings.NewReader("more bytes"))
	assert.NoError(t, err)
	assert.Equal(t, int64(10), n)
	assert.Equal(t, http.StatusNotFound, w.Status())
	assert.Equal(t, int64(14), w.Bytes())
	assert.Equal(t, "fourmore bytes", rec.Body.String())
	assert.Same(t, rec, w.Unwrap())

	implicit := New(httptest.NewRecorder())
	implicit.Write([]byte("x"))
	assert.Equal(t, http.StatusOK, implicit.Status())
}
