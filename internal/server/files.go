package server

import (
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// serveFile sends name from the site folder, the best twin the client
// accepts. The folder is reopened per request through os.Root, so nothing
// (not "..", not a symlink) resolves outside it, and a site rebuilt with
// `rm -rf build/site && make site` is picked up without a restart.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		plainError(w, http.StatusServiceUnavailable)
		return
	}
	defer root.Close()
	if !isRegular(root, name) {
		// An extensionless route such as "foo" is go-app's prerendered foo.html.
		if path.Ext(name) != "" || !isRegular(root, name+".html") {
			plainError(w, http.StatusNotFound)
			return
		}
		name += ".html"
	}
	for _, c := range codings(r.Header.Get("Accept-Encoding")) {
		if !isRegular(root, name+c.suffix) {
			continue
		}
		f, err := root.Open(name + c.suffix)
		if err != nil {
			continue
		}
		defer f.Close()
		info, err := f.Stat()
		if err != nil {
			plainError(w, http.StatusInternalServerError)
			return
		}
		etag, err := h.etag(name+c.suffix, f, info)
		if err != nil {
			plainError(w, http.StatusInternalServerError)
			return
		}
		hdr := w.Header()
		hdr.Set("Content-Type", contentType(name))
		hdr.Set("Cache-Control", "no-cache")
		hdr.Set("Vary", "Accept-Encoding")
		hdr.Set("ETag", etag)
		if c.name != "" {
			hdr.Set("Content-Encoding", c.name)
			// ServeContent leaves Content-Length to the caller once an
			// encoding is set; the twin's size is the exact length.
			hdr.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
		// Zero modtime: validation is by ETag only. Ranges, HEAD and
		// If-None-Match → 304 are ServeContent's; a Range on a twin
		// addresses the encoded bytes, which the twin's own ETag keeps
		// consistent.
		http.ServeContent(w, r, name, time.Time{}, f)
		return
	}
	plainError(w, http.StatusNotFound)
}

// isRegular stats before any Open, so a FIFO or device is never opened
// (opening a FIFO would block the request).
func isRegular(root *os.Root, name string) bool {
	info, err := root.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

// coding is one representation of a file: its Content-Encoding ("" for
// identity) and the suffix of the twin that holds it.
type coding struct{ name, suffix string }

// codings are the representations acceptEncoding allows, best first: br
// and gzip by q-value, br on a tie, and identity last whatever the client
// says, because a 406 for a static page helps nobody (RFC 9110 allows it).
func codings(acceptEncoding string) []coding {
	br, gz := qvalue(acceptEncoding, "br"), qvalue(acceptEncoding, "gzip")
	var out []coding
	if br > 0 && br >= gz {
		out = append(out, coding{"br", ".br"})
	}
	if gz > 0 {
		out = append(out, coding{"gzip", ".gz"})
	}
	if br > 0 && br < gz {
		out = append(out, coding{"br", ".br"})
	}
	return append(out, coding{})
}

// qvalue is the weight acceptEncoding gives name, or "*"'s; 0 if neither
// is listed or the weight is malformed.
func qvalue(acceptEncoding, name string) float64 {
	star := 0.0
	for _, part := range strings.Split(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		q := 1.0
		if v, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(params)), "q="); ok {
			var err error
			if q, err = strconv.ParseFloat(strings.TrimSpace(v), 64); err != nil || q > 1 {
				q = 0
			}
		}
		switch {
		case coding == name, coding == "x-"+name:
			return q
		case coding == "*":
			star = q
		}
	}
	return star
}

// etagEntry is a file's ETag while its size and modification time hold.
type etagEntry struct {
	size    int64
	modTime time.Time
	etag    string
}

// etag is the strong ETag of f (opened as name): its content's SHA-256,
// remembered while the file's size and modification time hold, so a
// rebuilt site gets fresh tags without a restart. It leaves f at its start.
func (h *Handler) etag(name string, f *os.File, info os.FileInfo) (string, error) {
	if e, ok := h.etags.Load(name); ok {
		if e := e.(etagEntry); e.size == info.Size() && e.modTime.Equal(info.ModTime()) {
			return e.etag, nil
		}
	}
	// Two concurrent misses hash twice; harmless.
	sum := sha256.New()
	if _, err := io.Copy(sum, f); err != nil {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	etag := fmt.Sprintf(`"%x"`, sum.Sum(nil)[:16])
	h.etags.Store(name, etagEntry{info.Size(), info.ModTime(), etag})
	return etag, nil
}

// contentTypes are the site's, fixed rather than read from
// mime.TypeByExtension so the answer does not depend on the host's
// /etc/mime.types.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".json":        "application/json",
	".webmanifest": "application/manifest+json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
	".csv":         "text/csv; charset=utf-8",
}

// contentType is the type of the original file, whichever twin is sent.
func contentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}
