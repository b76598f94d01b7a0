package replay

import (
	"errors"
	"fmt"
)

// Lines is how many lines held data so far: every one is a request or
// skipped (blank lines and a CSV header are not counted).
func (rd *Reader) Lines() int { return rd.lineRead }

// Requests is how many requests were read so far.
func (rd *Reader) Requests() int { return rd.requests }

// Skipped is the lines skipped so far, with the first MaxSkipsKept reasons.
func (rd *Reader) Skipped() Skipped {
	s := rd.skipped
	s.First = append([]Skip(nil), s.First...)
	return s
}

// Notes says what the replay assumes about this log, for a person to read:
// how tenants were given where the log names none, and what it ignores.
// Complete once Read has returned io.EOF.
func (rd *Reader) Notes() []string {
	var notes []string
	if rd.schema.tenant == "" || rd.assigned > 0 {
		notes = append(notes, rd.tenancy.Note())
	}
	if rd.assigned > 0 && rd.assigned < rd.requests {
		notes = append(notes, fmt.Sprintf("%s of %s requests named no tenant.", thousands(rd.assigned), thousands(rd.requests)))
	}
	if rd.schema.format == FormatMooncake {
		notes = append(notes, "Mooncake's hash_ids (the prompt's 512-token blocks shared with earlier requests) are ignored: prefix caching is not modelled, so each request prefills and reserves its whole prompt.")
	}
	return notes
}

// noRequests is the error for a log without a good line.
func (rd *Reader) noRequests() error {
	switch {
	case rd.lineRead == 0:
		return errors.New("the log has a header but no requests")
	case rd.skipped.Count == 1:
		return fmt.Errorf("no request could be read: the one line was skipped, %v", rd.skipped.First[0])
	}
	return fmt.Errorf("no request could be read: all %s lines were skipped; the first, %v", thousands(rd.skipped.Count), rd.skipped.First[0])
}
