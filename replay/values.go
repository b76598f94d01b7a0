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
// 18:15:46.6805900" (2023), the same with an offset such as "+00:00" or Z,
// and either with a T between date and time. It accepts what time.Parse
// accepts for the layouts "2006-01-02 15:04:05.999999999" and the same with
// "Z07:00" (dateLayouts in the tests; FuzzDatetimeAsTimeParse holds the two
// together), and reads it by hand: time.Parse's layout machinery is most of
// the time package in the wasm.
func datetime(field, text string) (time.Time, error) {
	text = strings.TrimSpace(text)
	if len(text) > 10 && text[10] == 'T' {
		text = text[:10] + " " + text[11:]
	}
	if t, ok := parseDatetime(text); ok {
		return t, nil
	}
	return time.Time{}, badField(field, "%s is not a date and time such as 2023-11-16 18:15:46.6805900", shown(text))
}

func parseDatetime(s string) (time.Time, bool) {
	if len(s) < 4 {
		return time.Time{}, false
	}
	year, ok := digits(s[:4])
	s = s[4:]
	var month, day, hour, minute, sec, nsec int
	ok = ok && lit(&s, "-") && num(&s, &month, true) && lit(&s, "-") && num(&s, &day, true)
	// A space in the layout takes one or more.
	ok = ok && s != "" && s[0] == ' '
	s = strings.TrimLeft(s, " ")
	ok = ok && num(&s, &hour, false) && lit(&s, ":") && num(&s, &minute, true) && lit(&s, ":") && num(&s, &sec, true)
	if !ok || month < 1 || month > 12 || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	if len(s) >= 2 && (s[0] == '.' || s[0] == ',') && isDigit(s[1]) { // any digits; the first nine count
		n := 1
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		for i := 1; i < 10; i++ {
			nsec *= 10
			if i < n {
				nsec += int(s[i] - '0')
			}
		}
		s = s[n:]
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if t.Day() != day { // past the month's end: time.Parse's "day out of range"
		return time.Time{}, false
	}
	switch {
	case s == "" || s == "Z":
		return t, true
	case len(s) == 6 && (s[0] == '+' || s[0] == '-') && s[3] == ':':
		var h, m int
		hh, mm := s[1:3], s[4:6]
		if !num(&hh, &h, true) || !num(&mm, &m, true) || h > 24 || m > 60 {
			return time.Time{}, false
		}
		off := time.Duration(h)*time.Hour + time.Duration(m)*time.Minute
		if s[0] == '-' {
			off = -off
		}
		return t.Add(-off), true
	}
	return time.Time{}, false
}

// lit passes text at the start of *s.
func lit(s *string, text string) bool {
	rest, ok := strings.CutPrefix(*s, text)
	*s = rest
	return ok
}

// num reads one or two digits at the start of *s; fixed wants two.
func num(s *string, v *int, fixed bool) bool {
	t := *s
	switch {
	case t == "" || !isDigit(t[0]):
		return false
	case len(t) < 2 || !isDigit(t[1]):
		if fixed {
			return false
		}
		*v, *s = int(t[0]-'0'), t[1:]
	default:
		*v, *s = int(t[0]-'0')*10+int(t[1]-'0'), t[2:]
	}
	return true
}

// digits reads a number of s's digits alone.
func digits(s string) (int, bool) {
	n := 0
	for i := range len(s) {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func thousands(n int) string { return engine.Thousands(int64(n)) }
