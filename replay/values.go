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

// datetime reads the datetimes Azure's traces write: "2023-11-16
// 18:15:46.6805900" (2023), the same with an offset such as "+00:00" or
// "Z", and either with a T between date and time. It reads them by hand,
// not with time.Parse, whose layout machinery costs the wasm about 10 KB
// compressed for these two shapes (replay/datetime_test.go holds it to
// time.Parse).
func datetime(field, text string) (time.Time, error) {
	text = strings.TrimSpace(text)
	bad := badField(field, "%s is not a date and time such as 2023-11-16 18:15:46.6805900", shown(text))
	// 2006-01-02 15:04:05
	if len(text) < 19 || text[4] != '-' || text[7] != '-' || (text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':' {
		return time.Time{}, bad
	}
	var f [6]int
	for i, at := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		n, ok := digits(text[at[0]:at[1]])
		if !ok {
			return time.Time{}, bad
		}
		f[i] = n
	}
	year, month, day, hour, minute, sec := f[0], f[1], f[2], f[3], f[4], f[5]
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, bad
	}
	rest, nanos := text[19:], 0
	if len(rest) > 0 && (rest[0] == '.' || rest[0] == ',') { // time.Parse takes either
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return time.Time{}, bad
		}
		for i, scale := 1, int(time.Second/10); i < n && scale > 0; i, scale = i+1, scale/10 {
			nanos += int(rest[i]-'0') * scale
		}
		rest = rest[n:]
	}
	offset := 0
	switch {
	case rest == "" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, ok1 := digits(rest[1:3])
		m, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || h > 23 || m > 59 {
			return time.Time{}, bad
		}
		offset = (h*60 + m) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, bad
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC)
	return t.Add(-time.Duration(offset) * time.Second), nil
}

// digits reads a run of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// daysIn is how many days month has in year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func thousands(n int) string { return engine.Thousands(int64(n)) }

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
