package permalink

import (
	"errors"
	"strconv"
	"strings"
)

// maxEntry bounds any number typed into a field, before the engine's own,
// tighter bounds apply: big enough to say "too large" rather than overflow.
const maxEntry = 1 << 40

var suffixes = []struct {
	s string
	n int64
}{
	{"ki", 1 << 10}, {"mi", 1 << 20}, {"gi", 1 << 30},
	{"k", 1_000}, {"m", 1_000_000}, {"g", 1_000_000_000},
}

// ParseCount reads a positive whole number as people write it: "681280",
// "681,280", "681 280", "1M" (1,000,000), "2.04M", "1Mi" (1,048,576), "64Ki".
func ParseCount(text string) (int, error) { return parseCount(text, false) }

// ParseCountOrZero is ParseCount for a field that takes 0 as well.
func ParseCountOrZero(text string) (int, error) { return parseCount(text, true) }

func parseCount(text string, zeroOK bool) (int, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	s = strings.NewReplacer(",", "", "_", "", " ", "", "\u00a0", "").Replace(s)
	if s == "" {
		return 0, errors.New("enter a number, e.g. 681,280 or 1Mi")
	}
	if strings.HasPrefix(s, "-") {
		return 0, errors.New("must be a positive number")
	}
	mult := int64(1)
	for _, x := range suffixes {
		if strings.HasSuffix(s, x.s) {
			s, mult = strings.TrimSuffix(s, x.s), x.n
			break
		}
	}
	whole, frac, dotted := strings.Cut(s, ".")
	if whole == "" && frac == "" || strings.Trim(whole+frac, "0123456789") != "" || dotted && frac == "" {
		return 0, errors.New("not a number: use digits, e.g. 681,280, 2.04M or 1Mi")
	}
	if len(whole) > 13 || len(frac) > 6 { // keeps every product below in int64
		return 0, errors.New("that number is far too large")
	}
	// value = (whole·10^len(frac) + frac) · mult / 10^len(frac), exactly.
	scale := int64(1)
	for range frac {
		scale *= 10
	}
	num, _ := strconv.ParseInt("0"+whole+frac, 10, 64)
	if num > maxEntry*scale/mult+scale { // bounds the product below
		return 0, errors.New("that number is far too large")
	}
	if num*mult%scale != 0 {
		return 0, errors.New("must be a whole number")
	}
	n := num * mult / scale
	if n > maxEntry {
		return 0, errors.New("that number is far too large")
	}
	if n <= 0 && !(zeroOK && n == 0) {
		return 0, errors.New("must be at least 1")
	}
	return int(n), nil
}
