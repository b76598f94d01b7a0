package replay

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// FuzzLineReader: whatever the text and however a reader cuts it up, the
// lines are the text's, split at "\n", a "\r" before it and a byte-order
// mark at the start dropped, and a line over MaxLineBytes marked long.
func FuzzLineReader(f *testing.F) {
	for _, s := range []string{"", "a", "a\n", "a\r\nb", "\uFEFFx\n\n", "\r\n\r", "x\ny\n\nz"} {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, how uint8) {
		var r io.Reader = strings.NewReader(text)
		switch how % 3 {
		case 1:
			r = iotest.OneByteReader(r)
		case 2:
			r = iotest.DataErrReader(iotest.HalfReader(r))
		}
		want := strings.Split(text, "\n")
		if strings.HasSuffix(text, "\n") || text == "" {
			want = want[:len(want)-1]
		}
		l := newLineReader(r)
		for i, w := range want {
			got, err := l.next()
			if err != nil || l.n != i+1 || l.long {
				t.Fatalf("line %d: %v, n %d, long %v", i+1, err, l.n, l.long)
			}
			w = strings.TrimSuffix(w, "\r")
			if i == 0 {
				w = strings.TrimPrefix(w, "\uFEFF")
			}
			if string(got) != w {
				t.Fatalf("line %d: %q, want %q", i+1, got, w)
			}
		}
		if _, err := l.next(); err != io.EOF {
			t.Fatalf("after %d lines: %v", len(want), err)
		}
	})
}

// A line over MaxLineBytes is read through and marked, whatever its ending,
// and the lines around it are whole.
func TestLineReaderLongLines(t *testing.T) {
	for _, n := range []int{MaxLineBytes, MaxLineBytes + 1, MaxLineBytes + 2, 3 * readSize, 3*MaxLineBytes + 7} {
		for _, end := range []string{"\n", "\r\n", ""} {
			text := "a\n" + strings.Repeat("x", n) + end
			if end != "" {
				text += "b"
			}
			l := newLineReader(iotest.HalfReader(strings.NewReader(text)))
			got, _ := l.next()
			if string(got) != "a" {
				t.Fatalf("%d%q: first line %q", n, end, got)
			}
			got, err := l.next()
			if err != nil || (n > MaxLineBytes) != l.long || !l.long && len(got) != n {
				t.Fatalf("%d%q: the long line: %d bytes, long %v, %v", n, end, len(got), l.long, err)
			}
			if end != "" {
				if got, _ := l.next(); string(got) != "b" || l.long {
					t.Fatalf("%d%q: last line %q", n, end, got)
				}
			}
			if _, err := l.next(); err != io.EOF {
				t.Fatalf("%d%q: %v", n, end, err)
			}
		}
	}
	// A reader's error is the reader's.
	l := newLineReader(iotest.TimeoutReader(bytes.NewReader(bytes.Repeat([]byte("x\n"), readSize))))
	for {
		if _, err := l.next(); err != nil {
			if err != iotest.ErrTimeout {
				t.Fatal(err)
			}
			break
		}
	}
}
