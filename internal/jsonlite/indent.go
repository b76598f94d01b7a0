package jsonlite

// appendIndent lays out compact JSON (Marshal's output, so valid and
// without spaces) as json.Indent does: a line per element, "key": value,
// and empty objects and arrays kept as {} and [].
func appendIndent(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // after { or [: the newline waits to see if it is empty
	inString, escaped := false, false
	for _, c := range src {
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = newline(dst, prefix, indent, depth)
		}
		switch c {
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = newline(dst, prefix, indent, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				dst = newline(dst, prefix, indent, depth)
			}
			dst = append(dst, c)
		case '"':
			inString = true
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func newline(dst []byte, prefix, indent string, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}
