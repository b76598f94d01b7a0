package server

import (
	"fmt"
	"net"
	"strconv"
	"strings"
)

// maxPrefixLen keeps the prefix well under the request path limit.
const maxPrefixLen = 256

// NormalizePrefix validates a sub-path prefix and returns it without a
// trailing slash ("" for the root), so "/kvleak/" and "/kvleak" mean the same.
func NormalizePrefix(p string) (string, error) {
	if p == "" || p == "/" {
		return "", nil
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("invalid -prefix %q: must start with /", p)
	}
	if len(p) > maxPrefixLen {
		return "", fmt.Errorf("invalid -prefix: longer than %d bytes", maxPrefixLen)
	}
	trimmed := strings.TrimSuffix(p, "/")
	for _, seg := range strings.Split(trimmed[1:], "/") {
		switch {
		case seg == "":
			return "", fmt.Errorf("invalid -prefix %q: empty path segment", p)
		case seg == "." || seg == "..":
			return "", fmt.Errorf("invalid -prefix %q: %q segments are not allowed", p, seg)
		case strings.HasPrefix(seg, "."):
			return "", fmt.Errorf("invalid -prefix %q: segments may not start with a dot", p)
		}
		// Unreserved URL characters only: the prefix goes verbatim into
		// redirects and the start line, so nothing needs escaping.
		for _, c := range seg {
			if !isUnreserved(c) {
				return "", fmt.Errorf("invalid -prefix %q: character %q not allowed (use letters, digits, - . _ ~)", p, c)
			}
		}
	}
	return trimmed, nil
}

func isUnreserved(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// NormalizeFrameAncestors validates the CSP frame-ancestors source list. It
// rejects anything that could end the directive or the header (";", ",",
// control characters) and tokens that are not CSP sources.
func NormalizeFrameAncestors(v string) (string, error) {
	for _, c := range v {
		switch {
		case c < 0x20 || c == 0x7f:
			return "", fmt.Errorf("invalid -frame-ancestors %q: control characters (newline, tab, ...) not allowed", v)
		case c == ';' || c == ',':
			return "", fmt.Errorf("invalid -frame-ancestors %q: character %q would end the CSP directive", v, c)
		}
	}
	v = strings.TrimSpace(v)
	if v == "" {
		return "*", nil
	}
	tokens := strings.Fields(v)
	for _, tok := range tokens {
		if err := checkSourceToken(tok); err != nil {
			return "", fmt.Errorf("invalid -frame-ancestors %q: %w", v, err)
		}
		if tok == "'none'" && len(tokens) > 1 {
			return "", fmt.Errorf("invalid -frame-ancestors %q: 'none' must stand alone", v)
		}
	}
	return strings.Join(tokens, " "), nil
}

func checkSourceToken(tok string) error {
	switch tok {
	case "*", "'self'", "'none'":
		return nil
	}
	if strings.HasPrefix(tok, "'") {
		return fmt.Errorf("keyword %s not allowed (only 'self' and 'none')", tok)
	}
	for _, c := range tok {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			strings.ContainsRune("-._~:/*[]%", c)
		if !ok {
			return fmt.Errorf("character %q not allowed in source %q", c, tok)
		}
	}
	return nil
}

// ValidateAddr checks a listen address of the form host:port.
func ValidateAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("invalid -addr %q: want host:port, e.g. 127.0.0.1:8080", addr)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("invalid -addr %q: port must be a number from 0 to 65535", addr)
	}
	if strings.ContainsAny(host, " /\\") {
		return fmt.Errorf("invalid -addr %q: bad host", addr)
	}
	return nil
}
