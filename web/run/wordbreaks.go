package run

import (
	"html"
	"strings"
	"unicode"
)

// breakable is text, as escaped markup, that may wrap inside its identifiers only between
// their parts: after "_" or ".", and between the words of CamelCase, each a
// <wbr>. A narrow caption then wraps "DecodeTransferQueue" as
// "DecodeTransfer / Queue" and "kv_committed_len" as "kv_committed_ / len",
// never mid-word (app.css leaves breaking anywhere as the last resort).
func breakable(s string) string {
	// One pass and one builder: a scrubber move at glm-launch writes 7–8
	// stages' names and roles, and a rune slice and a concatenation a part
	// were most of a stage's render.
	var b strings.Builder
	start, prev := 0, rune(0)
	for i, cur := range s {
		if i > 0 && (prev == '_' || prev == '.' || unicode.IsLower(prev) && unicode.IsUpper(cur)) {
			b.WriteString(html.EscapeString(s[start:i]))
			b.WriteString("<wbr>")
			start = i
		}
		prev = cur
	}
	b.WriteString(html.EscapeString(s[start:]))
	return b.String()
}
