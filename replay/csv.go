package replay

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cells splits CSV lines one at a time, by RFC 4180's quoting as
// encoding/csv reads it (with TrimLeadingSpace), without encoding/csv and
// its bufio in the wasm: a line is split alone, so a quote left open cannot
// swallow the rest of the log into one record: the field ends with the
// line and the line is bad. FuzzCellsAsEncodingCSV holds the two to the
// same cells and the same refusals.
type cells struct {
	buf  []byte   // the line's cells, unquoted, one after another
	ends []int    // where each cell ends in buf
	rec  []string // the cells, valid until the next split
}

func newCells() *cells { return &cells{} }

// The refusals, in encoding/csv's words (csv.ErrBareQuote, csv.ErrQuote).
var (
	errBareQuote = errors.New(`bare " in non-quoted-field`)
	errQuote     = errors.New(`extraneous or missing " in quoted-field`)
)

// split returns line's cells, valid until the next call.
func (c *cells) split(line []byte) ([]string, error) {
	c.buf, c.ends = c.buf[:0], c.ends[:0]
	line = bytes.TrimSuffix(line, []byte("\r")) // as encoding/csv drops it at the end
	for {
		line = trimLeadingSpace(line)
		if len(line) == 0 || line[0] != '"' {
			cell, rest, more := cut(line)
			if bytes.IndexByte(cell, '"') >= 0 {
				return nil, fmt.Errorf("is not CSV: %v", errBareQuote)
			}
			c.buf = append(c.buf, cell...)
			c.ends = append(c.ends, len(c.buf))
			if !more {
				break
			}
			line = rest
			continue
		}
		line = line[1:]
		for { // a quoted cell: "" is a quote, " then , or the line's end closes it
			i := bytes.IndexByte(line, '"')
			if i < 0 {
				return nil, fmt.Errorf("is not CSV: %v", errQuote)
			}
			c.buf = append(c.buf, line[:i]...)
			line = line[i+1:]
			if len(line) > 0 && line[0] == '"' {
				c.buf = append(c.buf, '"')
				line = line[1:]
				continue
			}
			break
		}
		c.ends = append(c.ends, len(c.buf))
		if len(line) == 0 {
			break
		}
		if line[0] != ',' {
			return nil, fmt.Errorf("is not CSV: %v", errQuote)
		}
		line = line[1:]
	}
	all := string(c.buf) // one string for the line, sliced into its cells
	c.rec = c.rec[:0]
	start := 0
	for _, end := range c.ends {
		c.rec = append(c.rec, all[start:end])
		start = end
	}
	return c.rec, nil
}

// cut splits an unquoted cell from the rest of the line at the next comma.
func cut(line []byte) (cell, rest []byte, more bool) {
	if i := bytes.IndexByte(line, ','); i >= 0 {
		return line[:i], line[i+1:], true
	}
	return line, nil, false
}

// trimLeadingSpace drops what unicode.IsSpace calls space, as
// encoding/csv's TrimLeadingSpace does.
func trimLeadingSpace(b []byte) []byte {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if !unicode.IsSpace(r) {
			break
		}
		b = b[n:]
	}
	return b
}

// csvParser reads the lines of a CSV log after its header.
type csvParser struct {
	s     schema
	cells *cells
	cols  map[string]int // field name → column
	width int
	clock clock
}

// newCSVParser reads a header and returns a parser for the lines under it,
// or nil when the header is none of ours.
func newCSVParser(header []byte) (*csvParser, error) {
	c := newCells()
	names, err := c.split(header)
	if err != nil {
		return nil, err
	}
	cols := make(map[string]int, len(names))
	for i, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		if _, dup := cols[n]; dup && n != "" {
			return nil, fmt.Errorf("the header names the column %s twice", shown(n))
		}
		cols[n] = i
	}
	var best schema
	var missing []string
	for _, s := range []schema{ourCSV, azure} {
		var lacks []string
		for _, f := range s.required() {
			if _, ok := cols[strings.ToLower(f)]; !ok {
				lacks = append(lacks, f)
			}
		}
		if len(lacks) == 0 {
			byName := make(map[string]int, 5)
			for _, f := range []string{s.time, s.tenant, s.prompt, s.output, s.session} {
				if i, ok := cols[strings.ToLower(f)]; ok && f != "" {
					byName[f] = i
				}
			}
			return &csvParser{s: s, cells: c, cols: byName, width: len(names)}, nil
		}
		if missing == nil || len(lacks) < len(missing) {
			best, missing = s, lacks
		}
	}
	if len(missing) < 3 {
		return nil, fmt.Errorf("the header has some of %s's columns but not %s", best.format, strings.Join(missing, ", "))
	}
	return nil, nil
}

func (p *csvParser) parse(line []byte) (record, error) {
	rec, err := p.cells.split(line)
	if err != nil {
		return record{}, err
	}
	if len(rec) != p.width {
		return record{}, fmt.Errorf("has %d fields, the header %d", len(rec), p.width)
	}
	return p.s.build(func(name string) (value, bool) {
		i, ok := p.cols[name]
		if !ok {
			return value{}, false
		}
		return value{strings.TrimSpace(rec[i]), true}, true
	}, &p.clock)
}
