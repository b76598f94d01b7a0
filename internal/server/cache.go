package server

import (
	"path"
	"regexp"
)

// Cache rule, kept to one line on purpose: a file whose base name carries a
// content hash (name.<8+ hex>.ext or name-<8+ hex>.ext) never changes under
// that URL, so it is immutable for a year; everything else, including the
// whole go-app shell (index.html, app.js, app-worker.js, wasm_exec.js, the
// manifest and web/app.wasm, whose URLs carry no version), is "no-cache":
// stored but revalidated with its ETag on every use.
var hashedName = regexp.MustCompile(`[.-][0-9a-fA-F]{8,64}\.[A-Za-z0-9]+$`)

const (
	cacheRevalidate = "no-cache"
	cacheImmutable  = "public, max-age=31536000, immutable"
)

func cacheControl(name string) string {
	if hashedName.MatchString(path.Base(name)) {
		return cacheImmutable
	}
	return cacheRevalidate
}
