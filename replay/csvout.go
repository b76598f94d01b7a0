package replay

import (
	"io"
	"strconv"
	"strings"
	"time"
)

// csvOut writes CSV rows (RFC 4180) to a writer, a row at a time, and keeps
// the first write error. Text from the log (tenant names) is always quoted
// and neutralised for spreadsheets (safeText); numbers are written bare.
type csvOut struct {
	w   io.Writer
	row []byte
	err error
}

func newCSVOut(w io.Writer) *csvOut { return &csvOut{w: w} }

// text adds a cell of untrusted text.
func (c *csvOut) text(s string) { c.quoted(safeText(s)) }

// quoted adds a cell in quotes, its own quotes doubled.
func (c *csvOut) quoted(s string) {
	c.sep()
	c.row = append(c.row, '"')
	c.row = append(c.row, strings.ReplaceAll(s, `"`, `""`)...)
	c.row = append(c.row, '"')
}

// num adds a whole number.
func (c *csvOut) num(n int64) {
	c.sep()
	c.row = strconv.AppendInt(c.row, n, 10)
}

// seconds adds a time as decimal seconds, exact to the nanosecond.
func (c *csvOut) seconds(d time.Duration) {
	c.sep()
	c.row = appendSeconds(c.row, d)
}

// plain adds cells of our own, such as a header's names.
func (c *csvOut) plain(cells string) {
	c.sep()
	c.row = append(c.row, cells...)
}

func (c *csvOut) sep() {
	if len(c.row) > 0 {
		c.row = append(c.row, ',')
	}
}

// end writes the row with RFC 4180's line end.
func (c *csvOut) end() {
	c.row = append(c.row, '\r', '\n')
	if c.err == nil {
		_, c.err = c.w.Write(c.row)
	}
	c.row = c.row[:0]
}

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula (OWASP, "CSV Injection": = + - @, tab and carriage
// return), and the quote that safeText itself puts in front.
const formulaStarts = "=+-@\t\r'"

// safeText is s as a spreadsheet shows it and never runs: one starting
// with a character of formulaStarts gets a ' in front, which spreadsheets
// read as "text follows". A name that starts with ' gets one more, so
// that dropping the first ' always gives the name back (TestSafeText).
func safeText(s string) string {
	if s != "" && strings.IndexByte(formulaStarts, s[0]) >= 0 {
		return "'" + s
	}
	return s
}

// appendSeconds writes d as seconds: "12", "12.5", "0.000000001".
func appendSeconds(b []byte, d time.Duration) []byte {
	if d < 0 {
		b, d = append(b, '-'), -d
	}
	b = strconv.AppendInt(b, int64(d/time.Second), 10)
	ns := int64(d % time.Second)
	if ns == 0 {
		return b
	}
	frac := strconv.AppendInt(nil, ns+1e9, 10)[1:] // nine digits, leading zeros kept
	for frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	return append(append(b, '.'), frac...)
}
