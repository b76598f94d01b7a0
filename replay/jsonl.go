package replay

import (
	"bytes"
	"errors"
	"fmt"

	"kvleak/internal/jsonlite"
)

// A JSONL line is read with internal/jsonlite, not encoding/json, which the
// wasm leaves out. jsonlite checks the line; members then splits the object
// into its keys and raw values, since jsonlite reads no fractional numbers
// (a time such as 12.5 stays text here and is read by duration).

// member is one key of a JSON object and its value's raw text.
type member struct {
	key string
	raw []byte
}

// members returns the top-level keys of the JSON object in line.
func members(line []byte, into []member) ([]member, error) {
	if err := jsonlite.Unmarshal(line, &struct{}{}); err != nil {
		var te *jsonlite.TypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("is JSON but %s, not an object", te.Value)
		}
		return nil, fmt.Errorf("is not JSON: %v", err)
	}
	s := scanner{b: line}
	s.space()
	s.i++ // {
	for s.space(); s.b[s.i] != '}'; s.space() {
		key := jsonString(s.str())
		s.space()
		s.i++ // :
		s.space()
		start := s.i
		s.skip()
		into = append(into, member{key, line[start:s.i]})
		s.space()
		if s.b[s.i] == ',' {
			s.i++
		}
	}
	return into, nil
}

// scanner walks JSON that jsonlite has already checked.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\r' || s.b[s.i] == '\n') {
		s.i++
	}
}

// str passes a string and returns it with its quotes.
func (s *scanner) str() []byte {
	start := s.i
	for s.i++; s.b[s.i] != '"'; s.i++ {
		if s.b[s.i] == '\\' {
			s.i++
		}
	}
	s.i++
	return s.b[start:s.i]
}

// skip passes one value.
func (s *scanner) skip() {
	for depth := 0; ; {
		switch s.b[s.i] {
		case '"':
			s.str()
		case '{', '[':
			depth++
			s.i++
			continue
		case '}', ']':
			depth--
			s.i++
		case ',', ':', ' ', '\t', '\r', '\n':
			s.i++
			continue
		default: // a number or a literal
			for s.i < len(s.b) && bytes.IndexByte([]byte(",:]} \t\r\n"), s.b[s.i]) < 0 {
				s.i++
			}
		}
		if depth == 0 {
			return
		}
	}
}

// jsonString decodes a JSON string literal that jsonlite has checked.
func jsonString(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	_ = jsonlite.Unmarshal(raw, &s) // cannot fail: the line was checked
	return s
}

// jsonlParser reads the lines of a JSONL log.
type jsonlParser struct {
	s   schema
	buf []member
}

func (p *jsonlParser) parse(line []byte) (record, error) {
	ms, err := members(line, p.buf[:0])
	if err != nil {
		return record{}, err
	}
	p.buf = ms
	for i, m := range ms {
		for _, n := range ms[:i] {
			if n.key == m.key && p.s.known(m.key) {
				return record{}, badField(m.key, "appears twice")
			}
		}
	}
	return p.s.build(func(name string) (value, bool) {
		for _, m := range ms {
			if m.key == name {
				if m.raw[0] == '"' {
					return value{jsonString(m.raw), true}, true
				}
				return value{string(m.raw), false}, true
			}
		}
		return value{}, false
	}, nil)
}
