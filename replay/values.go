package replay

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"kvleak/engine"
)

// Limits on a request's numbers: the simulation's own (engine), so that
// every request read can be sent.
const (
	MaxPromptTokens = engine.MaxPromptTokens
	MaxOutputTokens = engine.MaxContextTokens // no context holds a longer answer
	// MaxSeconds bounds a time: enough for Unix time (until 2106) and exact
	// to the nanosecond in an int64.
	MaxSeconds = 1 << 32
)

// fieldError is a bad field's reason; the reader adds the line.
type fieldError struct {
	field, reason string
}

func (e *fieldError) Error() string { return e.field + ": " + e.reason }

func badField(field, format string, args ...any) *fieldError {
	return &fieldError{field, fmt.Sprintf(format, args...)}
}

// tokens reads a count of tokens between lo and hi.
func tokens(field, text string, lo, hi int) (int, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return 0, badField(field, "is empty")
	}
	if strings.Trim(text, "0123456789") != "" {
		if strings.HasPrefix(text, "-") && strings.Trim(text[1:], "0123456789") == "" {
			return 0, badField(field, "%s is negative", shown(text))
		}
		return 0, badField(field, "%s is not a whole number", shown(text))
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n > int64(hi) {
		return 0, badField(field, "%s is more than %s, the most the simulation takes", shown(text), thousands(hi))
	}
	if n < int64(lo) {
		return 0, badField(field, "%s is less than %d", shown(text), lo)
	}
	return int(n), nil
}

// duration reads a plain decimal time, such as 12.5, in units of unit
// (time.Second, time.Millisecond), to the nanosecond: digits beyond are
// dropped. Exponents are refused, as no log we read writes them.
func duration(field, text string, unit time.Duration) (time.Duration, error) {
	text = strings.TrimSpace(text)
	whole, frac, dotted := strings.Cut(text, ".")
	switch {
	case text == "":
		return 0, badField(field, "is empty")
	case strings.HasPrefix(text, "-"):
		return 0, badField(field, "%s is negative: times count from the log's start", shown(text))
	case whole == "" || strings.Trim(whole, "0123456789") != "" || strings.Trim(frac, "0123456789") != "" || dotted && frac == "":
		return 0, badField(field, "%s is not a plain decimal number", shown(text))
	}
	max := time.Duration(MaxSeconds) * time.Second / unit
	n, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || time.Duration(n) > max {
		return 0, badField(field, "%s is more than %s seconds", shown(text), thousands(MaxSeconds))
	}
	d := time.Duration(n) * unit
	for scale := unit / 10; scale > 0 && frac != ""; scale /= 10 {
		d += time.Duration(frac[0]-'0') * scale
		frac = frac[1:]
	}
	if d > time.Duration(MaxSeconds)*time.Second {
		return 0, badField(field, "%s is more than %s seconds", shown(text), thousands(MaxSeconds))
	}
	return d, nil
}

// dateLayouts are the datetimes Azure's traces write: "2023-11-16
// 18:15:46.6805900" (2023), the same with an offset such as "+00:00", and
// either with a T between date and time.
var dateLayouts = []string{"2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"}

func datetime(field, text string) (time.Time, error) {
	text = strings.TrimSpace(text)
	if len(text) > 10 && text[10] == 'T' {
		text = text[:10] + " " + text[11:]
	}
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, text); err == nil {
			return t, nil
		}
	}
	return time.Time{}, badField(field, "%s is not a date and time such as 2023-11-16 18:15:46.6805900", shown(text))
}

func thousands(n int) string { return engine.Thousands(int64(n)) }

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
