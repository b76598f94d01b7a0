package replay

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// cells splits CSV lines one at a time. encoding/csv reads from oneLine,
// which holds a single line, so that a quote left open cannot swallow the
// rest of the log into one record: the field ends with the line and the
// line is bad.
type cells struct {
	src oneLine
	r   *csv.Reader
}

func newCells() *cells {
	c := &cells{}
	c.r = csv.NewReader(&c.src)
	c.r.FieldsPerRecord = -1 // the header's count is checked here, per line
	c.r.TrimLeadingSpace = true
	c.r.ReuseRecord = true
	return c
}

// split returns line's cells, valid until the next call.
func (c *cells) split(line []byte) ([]string, error) {
	c.src = oneLine{line}
	rec, err := c.r.Read()
	c.src = oneLine{}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("is not CSV: %v", pe.Err)
	}
	return rec, err
}

// oneLine is an io.Reader over one line that says io.EOF after it; the
// bufio.Reader inside csv.Reader reads on after an io.EOF, so the next line
// can follow.
type oneLine struct{ b []byte }

func (o *oneLine) Read(p []byte) (int, error) {
	if len(o.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, o.b)
	o.b = o.b[n:]
	return n, nil
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
			byName := make(map[string]int, 4)
			for _, f := range []string{s.time, s.tenant, s.prompt, s.output} {
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
