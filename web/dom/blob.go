package dom

import (
	"errors"
	"io"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// What the Replay panel reads a log from: a file the reader gives, or a
// sample of the site's own, both as a Blob read a slice at a time, so a
// log of any length streams through the replay in bounded memory. Nothing
// is sent anywhere.
//
// Read, FetchBlob and Yield wait for the browser: call them from a
// goroutine of one's own (ctx.Async), not go-app's, so that the page
// keeps handling events meanwhile. Go's wasm runtime returns to the
// browser when every goroutine waits; the promise's callback wakes the
// waiting one.

// blobChunk is how much of a Blob one read asks the browser for.
const blobChunk = 1 << 20

// BlobReader reads a Blob (a File, a fetched body) in slices.
type BlobReader struct {
	blob      app.Value
	off, size int
	buf       []byte // the slice read and not yet handed out
}

// NewBlobReader reads blob from its start.
func NewBlobReader(blob app.Value) *BlobReader {
	return &BlobReader{blob: blob, size: blob.Get("size").Int()}
}

// Size is the Blob's length in bytes.
func (b *BlobReader) Size() int64 { return int64(b.size) }

func (b *BlobReader) Read(p []byte) (int, error) {
	if len(b.buf) == 0 {
		if b.off >= b.size {
			return 0, io.EOF
		}
		end := min(b.off+blobChunk, b.size)
		buf, err := await(b.blob.Call("slice", b.off, end).Call("arrayBuffer"))
		if err != nil {
			return 0, errors.New("the browser could not read the file")
		}
		arr := app.Window().Get("Uint8Array").New(buf)
		b.buf = make([]byte, arr.Length())
		app.CopyBytesToGo(b.buf, arr)
		b.off = end
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	return n, nil
}

// FetchBlob fetches url (the site's own) and returns its body as a Blob.
func FetchBlob(url string) (app.Value, error) {
	resp, err := await(app.Window().Call("fetch", url))
	if err != nil {
		return nil, errors.New("it could not be fetched (offline?)")
	}
	if !resp.Get("ok").Bool() {
		return nil, errors.New("the site answered " + resp.Get("status").String())
	}
	blob, err := await(resp.Call("blob"))
	if err != nil {
		return nil, errors.New("it could not be read")
	}
	return blob, nil
}

// Yield lets the browser paint a frame before the calling goroutine goes
// on: it wakes after the next animation frame, from a message posted
// there (as AfterPaint does). Tasks posted back to back (a timeout of 0)
// starved the frames: Chromium let 100 to 400 ms pass between two. In a
// hidden page, where no frame comes, a timeout of 0 wakes it.
func Yield() {
	done := make(chan struct{})
	win := app.Window()
	ch := win.Get("MessageChannel").New()
	var frame, wake app.Func
	wake = app.FuncOf(func(app.Value, []app.Value) any {
		close(done)
		return nil
	})
	frame = app.FuncOf(func(app.Value, []app.Value) any {
		ch.Get("port2").Call("postMessage", 0)
		return nil
	})
	if win.Get("document").Get("hidden").Bool() {
		win.Call("setTimeout", wake, 0)
	} else {
		ch.Get("port1").Set("onmessage", wake)
		win.Call("requestAnimationFrame", frame)
	}
	<-done
	ch.Get("port1").Call("close")
	frame.Release()
	wake.Release()
}

// await waits for a promise: its value, or an error if it was refused.
func await(promise app.Value) (app.Value, error) {
	type settled struct {
		v  app.Value
		ok bool
	}
	ch := make(chan settled, 1)
	var ok, refused app.Func
	ok = app.FuncOf(func(_ app.Value, args []app.Value) any {
		ch <- settled{args[0], true}
		return nil
	})
	refused = app.FuncOf(func(app.Value, []app.Value) any {
		ch <- settled{nil, false}
		return nil
	})
	promise.Call("then", ok, refused)
	s := <-ch
	ok.Release()
	refused.Release()
	if !s.ok {
		return nil, errors.New("refused")
	}
	return s.v, nil
}

// DroppedFile is the first file of a drop event, and whether there is one.
func DroppedFile(e app.Event) (app.Value, bool) {
	files := e.Get("dataTransfer").Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return nil, false
	}
	return files.Index(0), true
}
