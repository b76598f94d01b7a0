package server

import (
	"net/http"
	"os"
	"path"
	"strconv"
	"time"
)

// serveFile sends name from the site folder, choosing the best twin the
// client accepts. The folder is reopened per request through os.Root, so
// nothing (not "..", not a symlink) resolves outside it, and a site rebuilt
// with `rm -rf build/site && make site` is picked up without a restart.
func (h *Handler) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		plainError(w, http.StatusServiceUnavailable)
		return
	}
	defer root.Close()

	name, ok := resolve(root, name)
	if !ok {
		plainError(w, http.StatusNotFound)
		return
	}
	for _, c := range negotiate(r.Header.Get("Accept-Encoding")) {
		f, info, ok := openRegular(root, name+c.suffix)
		if !ok {
			continue
		}
		defer f.Close()
		etag, err := h.etags.get(name+c.suffix, f, info)
		if err != nil {
			plainError(w, http.StatusInternalServerError)
			return
		}
		hdr := w.Header()
		hdr.Set("Content-Type", contentType(name))
		hdr.Set("Cache-Control", cacheControl(name))
		hdr.Set("Vary", "Accept-Encoding")
		hdr.Set("ETag", etag)
		if c.name != "" {
			hdr.Set("Content-Encoding", c.name)
			// ServeContent leaves Content-Length to the caller once an
			// encoding is set; the twin's size is the exact length.
			hdr.Set("Content-Length", strconv.FormatInt(info.Size(), 10))
		}
		// Zero modtime: validation is by content-hash ETag only. Ranges,
		// HEAD and If-None-Match → 304 come from ServeContent; a Range on a
		// twin addresses the encoded bytes, which the per-twin ETag keeps
		// consistent.
		http.ServeContent(w, r, name, time.Time{}, f)
		return
	}
	plainError(w, http.StatusNotFound)
}

// resolve maps a name to an existing regular file: the name itself, or,
// for an extensionless route such as "foo", go-app's prerendered foo.html.
func resolve(root *os.Root, name string) (string, bool) {
	if isRegular(root, name) {
		return name, true
	}
	if path.Ext(name) == "" && isRegular(root, name+".html") {
		return name + ".html", true
	}
	return "", false
}

// isRegular uses Stat before any Open so a FIFO or device is never opened
// (opening a FIFO would block the request).
func isRegular(root *os.Root, name string) bool {
	info, err := root.Stat(name)
	return err == nil && info.Mode().IsRegular()
}

func openRegular(root *os.Root, name string) (*os.File, os.FileInfo, bool) {
	if !isRegular(root, name) {
		return nil, nil, false
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, false
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, info, true
}
