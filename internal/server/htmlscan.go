package server

import (
	"html"
	"strings"
)

// pageScan is what the CSP has to know about one prerendered page: the
// inline code it must allow by hash, and things it will block anyway.
type pageScan struct {
	scripts    []string // bodies of <script> elements without src
	styles     []string // bodies of <style> elements
	styleAttrs []string // decoded style="..." attribute values
	remote     []string // http(s) URLs the page loads as script, style or image
	handlers   []string // inline event-handler attributes (onclick=...)
}

// scanHTML is a small tokenizer, not a full HTML5 parser: enough for the
// well-formed pages go-app generates, and it errs toward finding more
// inline content, never less, so the CSP never silently blocks the page.
func scanHTML(doc string) pageScan {
	var out pageScan
	i := 0
	for {
		lt := strings.IndexByte(doc[i:], '<')
		if lt < 0 {
			return out
		}
		i += lt
		rest := doc[i:]
		switch {
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return out
			}
			i += 4 + end + 3
			continue
		case strings.HasPrefix(rest, "<!"), strings.HasPrefix(rest, "<?"), strings.HasPrefix(rest, "</"):
			end := strings.IndexByte(rest, '>')
			if end < 0 {
				return out
			}
			i += end + 1
			continue
		}
		tag, attrs, n := readTag(rest)
		i += n
		if tag == "" {
			continue
		}
		out.noteAttrs(tag, attrs)
		if tag != "script" && tag != "style" {
			continue
		}
		end := indexFold(doc[i:], "</"+tag)
		if end < 0 {
			end = len(doc) - i
		}
		body := doc[i : i+end]
		i += end
		if tag == "style" {
			out.styles = append(out.styles, body)
		} else if _, hasSrc := attrs["src"]; !hasSrc {
			out.scripts = append(out.scripts, body)
		}
	}
}

func (s *pageScan) noteAttrs(tag string, attrs map[string]string) {
	if v, ok := attrs["style"]; ok {
		s.styleAttrs = append(s.styleAttrs, v)
	}
	for k := range attrs {
		if strings.HasPrefix(k, "on") {
			s.handlers = append(s.handlers, "<"+tag+" "+k+">")
		}
	}
	var url string
	switch tag {
	case "script", "img":
		url = attrs["src"]
	case "link":
		switch strings.ToLower(attrs["rel"]) {
		case "stylesheet", "icon", "apple-touch-icon", "manifest", "preload", "modulepreload":
			url = attrs["href"]
		}
	}
	if u := strings.ToLower(url); strings.HasPrefix(u, "http:") || strings.HasPrefix(u, "https:") || strings.HasPrefix(u, "//") {
		s.remote = append(s.remote, url)
	}
}

// readTag parses "<name attr=value ...>" at the start of s and returns the
// lower-case name, the attributes (values entity-decoded, as the browser
// sees them) and how many bytes it consumed.
func readTag(s string) (string, map[string]string, int) {
	i := 1
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if i == 1 {
		return "", nil, 1
	}
	tag := strings.ToLower(s[1:i])
	attrs := map[string]string{}
	for i < len(s) {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '>' {
			return tag, attrs, i + 1
		}
		if s[i] == '/' {
			i++
			continue
		}
		start := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '=' && s[i] != '>' && s[i] != '/' {
			i++
		}
		name := strings.ToLower(s[start:i])
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		value := ""
		if i < len(s) && s[i] == '=' {
			i++
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			value, i = readValue(s, i)
		}
		if _, dup := attrs[name]; !dup && name != "" {
			attrs[name] = html.UnescapeString(value)
		}
	}
	return tag, attrs, len(s)
}

func readValue(s string, i int) (string, int) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q := s[i]
		end := strings.IndexByte(s[i+1:], q)
		if end < 0 {
			return s[i+1:], len(s)
		}
		return s[i+1 : i+1+end], i + 2 + end
	}
	start := i
	for i < len(s) && !isSpace(s[i]) && s[i] != '>' {
		i++
	}
	return s[start:i], i
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// indexFold finds a lower-case ASCII needle ignoring ASCII case only, as
// the HTML tokenizer does (Unicode folding would shift byte offsets).
func indexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		j := 0
		for j < len(needle) && lowerASCII(s[i+j]) == needle[j] {
			j++
		}
		if j == len(needle) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
