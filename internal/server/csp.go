package server

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// buildCSP returns the policy for every response. It allows what a go-app
// wasm app needs (its own scripts, WebAssembly compilation via
// 'wasm-unsafe-eval', its own styles, images, fetches, the service worker
// and the manifest) and nothing else. Inline <script>/<style> elements and
// style attributes found in the prerendered pages are allowed one by one
// by sha256 hash; 'unsafe-inline' is never used.
func buildCSP(frameAncestors string, scan pageScan) string {
	scriptSrc := append([]string{"'self'", "'wasm-unsafe-eval'"}, hashSources(scan.scripts)...)
	styleSrc := []string{"'self'"}
	if len(scan.styleAttrs) > 0 {
		// Attribute hashes only count with 'unsafe-hashes'; it still allows
		// exactly the hashed values, not arbitrary inline styles.
		styleSrc = append(styleSrc, "'unsafe-hashes'")
	}
	styleSrc = append(styleSrc, hashSources(append(slices.Clone(scan.styles), scan.styleAttrs...))...)
	return strings.Join([]string{
		"default-src 'self'",
		"script-src " + strings.Join(scriptSrc, " "),
		"style-src " + strings.Join(styleSrc, " "),
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

// hashSources returns sorted, de-duplicated 'sha256-...' sources.
func hashSources(bodies []string) []string {
	var out []string
	for _, b := range bodies {
		sum := sha256.Sum256([]byte(b))
		out = append(out, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// scanSite scans every .html file under the site (dot folders skipped) and
// merges what it finds; the warnings name content the CSP will block.
// It runs once at startup: restart the server after a rebuild that changes
// inline content.
func scanSite(site fs.FS) (pageScan, []string) {
	var all pageScan
	var warnings []string
	// The callback never fails, so WalkDir's own error is always nil.
	_ = fs.WalkDir(site, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable entry (e.g. a symlink leaving the folder) is
			// not served either, so it needs no CSP allowance.
			warnings = append(warnings, fmt.Sprintf("skipped %s: %v", name, err))
			return nil
		}
		if name != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || path.Ext(name) != ".html" {
			return nil
		}
		data, err := fs.ReadFile(site, name)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("skipped %s: %v", name, err))
			return nil
		}
		s := scanHTML(string(data))
		all.scripts = append(all.scripts, s.scripts...)
		all.styles = append(all.styles, s.styles...)
		all.styleAttrs = append(all.styleAttrs, s.styleAttrs...)
		for _, u := range s.remote {
			warnings = append(warnings, fmt.Sprintf("%s loads %s, which the CSP blocks (same-origin only)", name, u))
		}
		if n := len(s.styleAttrs); n > 0 {
			warnings = append(warnings, fmt.Sprintf("%s has %d inline style attribute(s): allowed by hash as prerendered, "+
				"but new values set at runtime (go-app .Style()) are blocked; prefer classes", name, n))
		}
		for _, h := range s.handlers {
			warnings = append(warnings, fmt.Sprintf("%s has inline handler %s, which the CSP blocks", name, h))
		}
		return nil
	})
	return all, warnings
}
