package sitegen

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// What go-app's encoder writes (app.Handler's pages, app.HTMLString): text
// HTML-escaped, so a "<" always opens a tag; attribute values as Go string
// literals; the attributes of a tag in the order of a Go map, which is
// random. canonical sorts them, so two renders of one state are the same
// bytes and the early states (early.go) can be compared with a render.
var (
	tagPattern  = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s="'<>/]+(?:="(?:[^"\\]|\\.)*")?)*)\s*(/?)>|</([a-zA-Z][a-zA-Z0-9-]*)\s*>`)
	attrPattern = regexp.MustCompile(`[^\s="'<>/]+(?:="(?:[^"\\]|\\.)*")?`)
)

// voidTags have no end tag.
var voidTags = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// canonical is page with each start tag's attributes in sorted order.
func canonical(page string) string {
	return tagPattern.ReplaceAllStringFunc(page, func(tag string) string {
		m := tagPattern.FindStringSubmatch(tag)
		if m[1] == "" { // an end tag
			return tag
		}
		attrs := attrPattern.FindAllString(m[2], -1)
		slices.Sort(attrs)
		out := "<" + m[1]
		for _, a := range attrs {
			out += " " + a
		}
		return out + m[3] + ">"
	})
}

// element finds, in a canonical page, the element whose id is id: where its
// start tag begins, where that tag ends and where its end tag ends.
func element(page, id string) (start, open, end int, err error) {
	attr := ` id="` + id + `"`
	for _, l := range tagPattern.FindAllStringSubmatchIndex(page, -1) {
		if l[2] >= 0 && strings.Contains(page[l[0]:l[1]], attr) {
			open, end, err = elementAt(page, l[0])
			return l[0], open, end, err
		}
	}
	return 0, 0, 0, fmt.Errorf("no element #%s", id)
}

// elementAt finds the end of the start tag at start and of the element's
// end tag: the first end tag of its name that closes as many as opened.
func elementAt(page string, start int) (open, end int, err error) {
	l := tagPattern.FindStringSubmatchIndex(page[start:])
	if l == nil || l[0] != 0 || l[2] < 0 {
		return 0, 0, fmt.Errorf("no start tag at %d", start)
	}
	name, open := page[start+l[2]:start+l[3]], start+l[1]
	if voidTags[name] {
		return open, open, nil
	}
	depth := 1
	for _, m := range tagPattern.FindAllStringSubmatchIndex(page[open:], -1) {
		switch {
		case m[2] >= 0 && page[open+m[2]:open+m[3]] == name:
			depth++
		case m[8] >= 0 && page[open+m[8]:open+m[9]] == name:
			depth--
		}
		if depth == 0 {
			return open, open + m[1], nil
		}
	}
	return 0, 0, fmt.Errorf("<%s> at %d has no end tag", name, start)
}
