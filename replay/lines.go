package replay

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLineBytes bounds one line of a log. Mooncake's longest line in the
// published traces is under 3 KB (its hash_ids list); a line of 1 MiB lists
// about 100,000 blocks, a 50-million-token prompt.
const MaxLineBytes = 1 << 20

// lineReader hands out a log's lines one at a time, numbered from 1, without
// the line end ("\n" or "\r\n"). Its memory is one line at most.
type lineReader struct {
	r    *bufio.Reader
	buf  []byte
	n    int  // the number of the line last returned
	long bool // the line last returned was cut at MaxLineBytes
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line, valid until the following call, and io.EOF
// after the last. A line longer than MaxLineBytes is read to its end but
// returned empty with l.long set.
func (l *lineReader) next() ([]byte, error) {
	l.buf, l.long = l.buf[:0], false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !l.long {
			if len(l.buf)+len(chunk) > MaxLineBytes+2 { // +2: the line end
				l.long, l.buf = true, l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(l.buf) == 0 && !l.long:
			return nil, io.EOF
		case err != nil && err != io.EOF:
			return nil, err
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
}
