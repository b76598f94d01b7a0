package replay

import (
	"bytes"
	"io"
)

// MaxLineBytes bounds one line of a log. Mooncake's longest line in the
// published traces is under 3 KB (its hash_ids list); a line of 1 MiB lists
// about 100,000 blocks, a 50-million-token prompt.
const MaxLineBytes = 1 << 20

// readSize is how much of the log one Read asks for.
const readSize = 64 << 10

// lineReader hands out a log's lines one at a time, numbered from 1, without
// the line end ("\n" or "\r\n"). Its memory is one line at most and a read
// buffer: bufio's reader, which did this, is left out of the wasm.
type lineReader struct {
	r    io.Reader
	rb   []byte // read from r: rb[at:] is not yet handed out
	at   int
	err  error // r's error, once it has given one
	buf  []byte
	n    int  // the number of the line last returned
	long bool // the line last returned was cut at MaxLineBytes
}

func newLineReader(r io.Reader) *lineReader { return &lineReader{r: r} }

// next returns the next line, valid until the following call, and io.EOF
// after the last. A line longer than MaxLineBytes is read to its end but
// returned empty with l.long set.
func (l *lineReader) next() ([]byte, error) {
	l.buf, l.long = l.buf[:0], false
	for {
		if l.at == len(l.rb) {
			if l.err != nil {
				if l.err != io.EOF {
					return nil, l.err
				}
				if len(l.buf) == 0 && !l.long {
					return nil, io.EOF
				}
				break // the last line, without a line end
			}
			l.fill()
			continue
		}
		chunk := l.rb[l.at:]
		end := bytes.IndexByte(chunk, '\n')
		if end >= 0 {
			chunk = chunk[:end+1]
		}
		l.at += len(chunk)
		if !l.long {
			if len(l.buf)+len(chunk) > MaxLineBytes+2 { // +2: the line end
				l.long, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		if end >= 0 {
			break
		}
	}
	l.n++
	line := bytes.TrimSuffix(bytes.TrimSuffix(l.buf, []byte("\n")), []byte("\r"))
	if len(line) > MaxLineBytes {
		l.long, line = true, nil
	}
	if l.n == 1 {
		line = bytes.TrimPrefix(line, []byte("\uFEFF")) // a byte-order mark
	}
	return line, nil
}

// fill reads the next part of the log into rb.
func (l *lineReader) fill() {
	if l.rb == nil {
		l.rb = make([]byte, readSize)
	}
	for range 100 { // as bufio, which gives up on a reader that reads nothing 100 times
		n, err := l.r.Read(l.rb[:cap(l.rb)])
		l.rb, l.at, l.err = l.rb[:n], 0, err
		if n > 0 || err != nil {
			return
		}
	}
	l.err = io.ErrNoProgress
}
