package server

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
)

// Handler serves one site folder. It is safe for concurrent use.
type Handler struct {
	dir      string
	prefix   string
	csp      string
	warnings []string
	etags    *etagCache
	log      *accessLog
}

// New checks the site folder and options and returns its handler. The
// folder must exist and hold index.html, so a forgotten `make site` fails
// at startup rather than as 404s in the browser.
func New(opts Options) (*Handler, error) {
	if opts.Dir == "" {
		return nil, errors.New("no site folder given (-dir)")
	}
	prefix, err := NormalizePrefix(opts.Prefix)
	if err != nil {
		return nil, err
	}
	ancestors, err := NormalizeFrameAncestors(opts.FrameAncestors)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(opts.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("site folder %s does not exist (build it first: make site)", opts.Dir)
	case err != nil:
		return nil, fmt.Errorf("site folder %s: %w", opts.Dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("site folder %s is not a folder", opts.Dir)
	}
	root, err := os.OpenRoot(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("site folder %s: %w", opts.Dir, err)
	}
	defer root.Close()
	if idx, err := root.Stat("index.html"); err != nil || !idx.Mode().IsRegular() {
		return nil, fmt.Errorf("site folder %s has no index.html (build it first: make site)", opts.Dir)
	}
	scan, warnings := scanSite(root.FS())
	return &Handler{
		dir:      opts.Dir,
		prefix:   prefix,
		csp:      buildCSP(ancestors, scan),
		warnings: warnings,
		etags:    newETagCache(),
		log:      newAccessLog(opts.AccessLog),
	}, nil
}

// CSP returns the Content-Security-Policy sent with every response.
func (h *Handler) CSP() string { return h.csp }

// Warnings lists prerendered content the CSP will block (remote resources,
// inline event handlers); the caller decides where to print them.
func (h *Handler) Warnings() []string { return h.warnings }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.log != nil {
		lw := h.log.wrap(w, r)
		defer lw.finish()
		w = lw
	}
	setSecurityHeaders(w.Header(), h.csp)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		plainError(w, http.StatusMethodNotAllowed)
		return
	}
	if code := checkPath(r); code != 0 {
		plainError(w, code)
		return
	}
	p := r.URL.Path
	if h.prefix != "" {
		if p == h.prefix {
			h.redirectToPrefix(w, r)
			return
		}
		rest, ok := strings.CutPrefix(p, h.prefix+"/")
		if !ok {
			plainError(w, http.StatusNotFound)
			return
		}
		p = "/" + rest
	}
	name, ok := siteName(p)
	if !ok {
		plainError(w, http.StatusNotFound)
		return
	}
	h.serveFile(w, r, name)
}

// redirectToPrefix sends "/kvleak" to "/kvleak/" so the page's relative
// URLs resolve inside the prefix. The query is kept for the app.
func (h *Handler) redirectToPrefix(w http.ResponseWriter, r *http.Request) {
	target := h.prefix + "/"
	if r.URL.RawQuery != "" {
		target += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", target)
	plainError(w, http.StatusMovedPermanently)
}

// plainError writes a short text body; no HTML, nothing echoed back.
func plainError(w http.ResponseWriter, code int) {
	http.Error(w, fmt.Sprintf("%d %s", code, http.StatusText(code)), code)
}
