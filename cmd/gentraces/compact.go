package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"kvleak/replay"
)

// compact reads a log and writes its requests as our CSV, times exact to
// the nanosecond. A log that names no tenant gets no tenant column, so the
// page's tenancy applies to the sample as to its source.
func compact(r io.Reader) ([]byte, error) {
	rd, err := replay.NewReader(r, replay.Tenancy{})
	if err != nil {
		return nil, err
	}
	named := rd.Format() == replay.FormatJSONL || rd.Format() == replay.FormatCSV
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if named {
		w.Write([]string{"t", "tenant", "prompt_tokens", "output_tokens"})
	} else {
		w.Write([]string{"t", "prompt_tokens", "output_tokens"})
	}
	for {
		q, err := rd.Read()
		if err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		row := []string{seconds(q.At), strconv.Itoa(q.PromptTokens), strconv.Itoa(q.OutputTokens)}
		if named {
			row = slices.Insert(row, 1, q.Tenant)
		}
		w.Write(row)
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, err
	}
	if s := rd.Skipped(); s.Count > 0 {
		return nil, fmt.Errorf("lines skipped: %d; the first, %v", s.Count, s.First[0])
	}
	return b.Bytes(), nil
}

// seconds writes d in seconds, exactly: 12.345, not 12.345000000000001.
func seconds(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	if frac := d % time.Second; frac != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%09d", frac), "0")
	}
	return s
}
