// Package server serves the built playground site (build/site): the
// standard library's http.ServeContent over the folder, opened through
// os.Root, with the precompressed twins, content-hash ETags, a
// Content-Security-Policy and refusals before any file access. It is
// server-only code: nothing in the wasm build may import it.
//
//   - URLs: "/" and "/index.html" give index.html; an extensionless route
//     "/foo" gives go-app's foo.html; the query is ignored; anything else
//     that is not a regular file is a plain-text 404 (path.go, files.go).
//   - Refused before any file access: encoded ".", "/", "\" or NUL, raw
//     backslashes, NULs, "." and ".." segments (400), paths over 1024 bytes
//     (414). Dotfiles, directories and direct requests for the .br/.gz
//     twins are 404 (path.go).
//   - Encoding: br or gzip by q-value, from the twins sitegen writes;
//     identity is the last resort (files.go).
//   - Caching: "no-cache", revalidated by a strong ETag from the content's
//     hash (files.go).
//   - CSP: same-origin only; the one inline script, sitegen's, is allowed by
//     the hash sitegen writes to ScriptHashes in the site folder.
package server

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
)

// ScriptHashes names the file in the site folder that lists the sha256
// sources of the site's inline scripts ('sha256-…'), one a line, for the
// CSP's script-src. sitegen writes it; a dotfile, so it is never served.
const ScriptHashes = ".script-hashes"

// Options configures the site handler.
type Options struct {
	// Dir is the site folder; it must hold index.html.
	Dir string
	// Prefix hosts the site under a sub-path such as "/kvleak"; "" or "/" is the root.
	Prefix string
	// FrameAncestors is the CSP frame-ancestors value; "" means "*" so the
	// playground can be embedded next to the postmortem.
	FrameAncestors string
	// AccessLog, when set, receives one line per request.
	AccessLog io.Writer
}

// Handler serves one site folder. It is safe for concurrent use.
type Handler struct {
	dir, prefix, csp string
	etags            sync.Map // name → etagEntry
	log              *accessLog
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
	if !isRegular(root, "index.html") {
		return nil, fmt.Errorf("site folder %s has no index.html (build it first: make site)", opts.Dir)
	}
	hashes, err := scriptHashes(root)
	if err != nil {
		return nil, fmt.Errorf("site folder %s: %w", opts.Dir, err)
	}
	h := &Handler{dir: opts.Dir, prefix: prefix, csp: csp(ancestors, hashes)}
	if opts.AccessLog != nil {
		h.log = &accessLog{out: opts.AccessLog}
	}
	return h, nil
}

var hashSource = regexp.MustCompile(`^'sha256-[A-Za-z0-9+/]{43}='$`)

// scriptHashes reads ScriptHashes; a site without it has no inline script
// the CSP allows.
func scriptHashes(root *os.Root) ([]string, error) {
	b, err := root.ReadFile(ScriptHashes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	hashes := strings.Fields(string(b))
	for _, s := range hashes {
		if !hashSource.MatchString(s) {
			return nil, fmt.Errorf("%s: %q is not a 'sha256-…' source", ScriptHashes, s)
		}
	}
	return hashes, nil
}

// csp allows what a go-app wasm app needs (its own scripts, WebAssembly
// compilation via 'wasm-unsafe-eval', its own styles, images, fetches, the
// service worker and the manifest), the inline scripts by hash, and nothing
// else; never 'unsafe-inline'.
func csp(frameAncestors string, scriptHashes []string) string {
	return strings.Join([]string{
		"default-src 'self'",
		strings.Join(append([]string{"script-src 'self' 'wasm-unsafe-eval'"}, scriptHashes...), " "),
		"style-src 'self'",
		"img-src 'self' data:",
		"connect-src 'self'",
		"worker-src 'self'",
		"manifest-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors " + frameAncestors,
	}, "; ")
}

// CSP returns the Content-Security-Policy sent with every response.
func (h *Handler) CSP() string { return h.csp }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.log != nil {
		rec := &Recorder{ResponseWriter: w}
		defer h.log.write(r, rec, time.Now())
		w = rec
	}
	// No Cross-Origin-Resource-Policy or X-Frame-Options: the playground is
	// meant to be embedded, and framing is governed by frame-ancestors.
	w.Header().Set("Content-Security-Policy", h.csp)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Referrer-Policy", "strict-origin-when-cross-origin")
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
			// "/kvleak" → "/kvleak/", so the page's relative URLs resolve
			// inside the prefix; the query is kept for the app.
			target := h.prefix + "/"
			if r.URL.RawQuery != "" {
				target += "?" + r.URL.RawQuery
			}
			w.Header().Set("Location", target)
			plainError(w, http.StatusMovedPermanently)
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

// plainError writes a short text body; no HTML, nothing echoed back.
func plainError(w http.ResponseWriter, code int) {
	http.Error(w, fmt.Sprintf("%d %s", code, http.StatusText(code)), code)
}
