package run

import (
	"html"
	"unicode"
)

// breakable is text, as escaped markup, that may wrap inside its identifiers only between
// their parts: after "_" or ".", and between the words of CamelCase, each a
// <wbr>. A narrow caption then wraps "DecodeTransferQueue" as
// "DecodeTransfer / Queue" and "kv_committed_len" as "kv_committed_ / len",
// never mid-word (app.css leaves breaking anywhere as the last resort).
func breakable(s string) string {
	out := ""
	runes := []rune(s)
	start := 0
	for i := 1; i < len(runes); i++ {
		prev, cur := runes[i-1], runes[i]
		if prev == '_' || prev == '.' || unicode.IsLower(prev) && unicode.IsUpper(cur) {
			out += html.EscapeString(string(runes[start:i])) + "<wbr>"
			start = i
		}
	}
	return out + html.EscapeString(string(runes[start:]))
}
