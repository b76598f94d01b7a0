package sitegen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// NormalizeDomain accepts the host name the site is served from, with an
// optional port, as go-app's Handler.Domain wants it: "kvleak.example.org",
// not a URL. "" means unknown.
func NormalizeDomain(d string) (string, error) {
	d = strings.ToLower(strings.TrimSpace(d))
	if d == "" {
		return "", nil
	}
	bad := func(why string) error {
		return fmt.Errorf("invalid -domain %q: %s; want a host name such as kvleak.example.org (no scheme, no path)", d, why)
	}
	if strings.Contains(d, "/") {
		return "", bad("that is a URL or a path")
	}
	host, port, hasPort := strings.Cut(d, ":")
	if hasPort {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port != strconv.Itoa(n) {
			return "", bad("the port must be 1..65535")
		}
	}
	if len(host) > 253 {
		return "", bad("longer than 253 characters")
	}
	for _, label := range strings.Split(host, ".") {
		if !hostLabel.MatchString(label) {
			return "", bad("each dot-separated part must be 1-63 letters, digits or inner hyphens")
		}
	}
	return d, nil
}

var hostLabel = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)

// unknownOriginMeta matches the og:url and og:image tags go-app writes when
// it has no domain: their content is a bare "https://", which link previews
// reject. go-app writes attributes in either order.
var unknownOriginMeta = regexp.MustCompile(`<meta (?:property="og:(?:url|image)" content="https://"|content="https://" property="og:(?:url|image)")>\n?`)

// dropUnknownOrigin removes those tags from the generated pages. In the
// browser go-app adds og:url back, with the page's real address.
func dropUnknownOrigin(dir string) error {
	return editPages(dir, func(page []byte) ([]byte, error) {
		return unknownOriginMeta.ReplaceAll(page, nil), nil
	})
}
