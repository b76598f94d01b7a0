package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"
)

// Request is one request of a log.
type Request struct {
	At           time.Duration // since the log's origin (see the package comment); At.Seconds() for seconds
	Tenant       string
	PromptTokens int
	OutputTokens int
	Line         int // in the log, from 1
	// Own: the log names no tenant and the tenancy makes each request its
	// own ("line 17"): the replay then numbers it by its line and keeps no
	// name, so that a million such tenants cost nothing.
	Own bool
	// Session is the session the line names ("" for none): the router
	// keeps a session on one instance (Options.Instances).
	Session string
}

// Reader reads a request log one request at a time, in bounded memory: one
// line at most (MaxLineBytes), and MaxSkipsKept messages.
type Reader struct {
	lines   *lineReader
	schema  schema
	parse   func(line []byte) (record, error)
	pending *Request // the first line of a JSONL log, read while detecting
	tenancy Tenancy

	prev     time.Duration // the time of the last request read
	prevLine int
	lineRead int // data lines: all but blank ones and a CSV header
	requests int
	assigned int // requests the log names no tenant for
	skipped  Skipped
	done     bool
}

// NewReader detects the log's format from its first non-blank line and
// returns a reader of its requests. tenancy names the tenant of a request
// whose line names none.
func NewReader(r io.Reader, tenancy Tenancy) (*Reader, error) {
	if err := tenancy.Check(); err != nil {
		return nil, err
	}
	rd := &Reader{lines: newLineReader(r), tenancy: tenancy}
	for {
		line, err := rd.lines.next()
		if err == io.EOF {
			return nil, errors.New("the log is empty")
		} else if err != nil {
			return nil, fmt.Errorf("reading the log: %w", err)
		}
		if rd.lines.long {
			return nil, fmt.Errorf("line %d is longer than %s bytes: not a request log", rd.lines.n, thousands(MaxLineBytes))
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if err := rd.detect(line); err != nil {
				return nil, err
			}
			return rd, nil
		}
	}
}

// detect picks the format the first line belongs to. A JSON line is read as
// a request too; a CSV header is not.
func (rd *Reader) detect(line []byte) error {
	n := rd.lines.n
	if bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
		ms, err := members(line, nil)
		if err != nil {
			return fmt.Errorf("line %d starts with { but %v", n, err)
		}
		has := func(key string) bool {
			for _, m := range ms {
				if m.key == key {
					return true
				}
			}
			return false
		}
		var s schema
		switch {
		case has(mooncake.time) || has(mooncake.prompt):
			s = mooncake
		case has(ourJSONL.time) || has(ourJSONL.prompt):
			s = ourJSONL
		default:
			return fmt.Errorf("line %d is JSON with neither our keys (t, tenant, prompt_tokens, output_tokens) nor Mooncake's (timestamp, input_length, output_length, hash_ids)", n)
		}
		rd.schema, rd.parse = s, (&jsonlParser{s: s}).parse
		if req, ok := rd.add(line); ok {
			rd.pending = &req
		}
		return nil
	}
	p, err := newCSVParser(line)
	if err != nil {
		return fmt.Errorf("line %d: %v", n, err)
	}
	if p == nil {
		return fmt.Errorf("line %d is not a log we read: it starts %s; a log is JSON lines (ours or Mooncake's) or CSV with the header t,tenant,prompt_tokens,output_tokens (ours) or TIMESTAMP,ContextTokens,GeneratedTokens (Azure's)", n, shown(string(line)))
	}
	rd.schema, rd.parse = p.s, p.parse
	return nil
}

// Format is the log's format.
func (rd *Reader) Format() Format { return rd.schema.format }

// Read returns the next request, or io.EOF after the last. A bad line is
// skipped and noted in Skipped. At the end of a log with no good line, the
// error says so.
func (rd *Reader) Read() (Request, error) {
	if req := rd.pending; req != nil {
		rd.pending = nil
		return *req, nil
	}
	for !rd.done {
		line, err := rd.lines.next()
		if err == io.EOF {
			rd.done = true
			break
		} else if err != nil {
			return Request{}, fmt.Errorf("reading line %d: %w", rd.lines.n+1, err)
		}
		if rd.lines.long {
			rd.lineRead++
			rd.skipped.add(Skip{Line: rd.lines.n, Reason: fmt.Sprintf("is longer than %s bytes", thousands(MaxLineBytes))})
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if req, ok := rd.add(line); ok {
			return req, nil
		}
	}
	if rd.requests == 0 {
		return Request{}, rd.noRequests()
	}
	return Request{}, io.EOF
}

// add reads a data line: a request, or a skipped line.
func (rd *Reader) add(line []byte) (Request, bool) {
	rd.lineRead++
	n := rd.lines.n
	rec, err := rd.parse(line)
	if err == nil && rec.at < rd.prev {
		err = badField(rd.schema.time, "%s is earlier than the request on line %d: a log must be in time order", shown(rec.timeText), rd.prevLine)
	}
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			rd.skipped.add(Skip{Line: n, Field: fe.field, Reason: fe.reason})
		} else {
			rd.skipped.add(Skip{Line: n, Reason: err.Error()})
		}
		return Request{}, false
	}
	rd.prev, rd.prevLine = rec.at, n
	rd.requests++
	own := false
	if rec.tenant == "" {
		rec.tenant, own = rd.tenancy.tenant(n), rd.tenancy.Tenants == 0
		rd.assigned++
	}
	return Request{At: rec.at, Tenant: rec.tenant, PromptTokens: rec.prompt, OutputTokens: rec.output, Line: n, Own: own, Session: rec.session}, true
}
