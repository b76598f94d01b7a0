package server

import (
	"net/http"
	"strings"
)

// maxPathLen bounds the raw request path; the site's longest real path is
// far shorter, and a cap keeps junk out of lookups and logs.
const maxPathLen = 1024

// checkPath vets the raw and decoded request path before any file access.
// It rejects, rather than cleans, anything a normal link never produces:
// encoded dots, slashes, backslashes and NULs, "." and ".." segments.
// It returns the status to send when the path is refused, or 0.
func checkPath(r *http.Request) int {
	raw := r.URL.EscapedPath()
	if len(raw) > maxPathLen || len(r.URL.Path) > maxPathLen {
		return http.StatusRequestURITooLong
	}
	lower := strings.ToLower(raw)
	for _, enc := range []string{"%2e", "%2f", "%5c", "%00"} {
		if strings.Contains(lower, enc) {
			return http.StatusBadRequest
		}
	}
	p := r.URL.Path
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "\\\x00") {
		return http.StatusBadRequest
	}
	for _, seg := range strings.Split(p[1:], "/") {
		if seg == "." || seg == ".." {
			return http.StatusBadRequest
		}
	}
	return 0
}

// siteName maps a vetted path (prefix already removed, leading "/") to a
// name inside the site folder. ok is false for paths that can never be a
// served file: directories, dotfiles, and the precompressed twins, which
// are only reachable through Accept-Encoding so that one URL has one
// Content-Type.
func siteName(p string) (name string, ok bool) {
	name = strings.TrimPrefix(p, "/")
	if name == "" {
		return "index.html", true
	}
	if strings.HasSuffix(name, "/") {
		return "", false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") {
		return "", false
	}
	return name, true
}
