package engine

import "strconv"

// Thousands formats n with comma separators ("681,280"), the way the
// postmortem writes its numbers.
func Thousands(n int64) string { return string(AppendThousands(make([]byte, 0, 26), n)) }

// AppendThousands appends Thousands(n) to dst.
func AppendThousands(dst []byte, n int64) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], n, 10)
	if s[0] == '-' {
		dst, s = append(dst, '-'), s[1:]
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, s[i])
	}
	return dst
}

func th(n int) string { return Thousands(int64(n)) }

// plural picks the singular or plural noun for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
