package web

import (
	"errors"
	"math/big"
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

// parseCount reads a positive whole number as people write it: "681280",
// "681,280", "681 280", "1M" (1,000,000), "2.04M", "1Mi" (1,048,576), "64Ki".
func parseCount(text string) (int, error) {
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
	if len(s) > 24 {
		return 0, errors.New("that number is far too large")
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || strings.Trim(s, "0123456789.") != "" || strings.Count(s, ".") > 1 {
		return 0, errors.New("not a number: use digits, e.g. 681,280, 2.04M or 1Mi")
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	if !r.IsInt() {
		return 0, errors.New("must be a whole number")
	}
	if r.Num().Cmp(big.NewInt(maxEntry)) > 0 {
		return 0, errors.New("that number is far too large")
	}
	if r.Sign() <= 0 {
		return 0, errors.New("must be at least 1")
	}
	return int(r.Num().Int64()), nil
}
