// Package server serves the built playground site (build/site) with the
// hardening the issue asks for. It is server-only code: nothing in the
// wasm build may import it.
//
// Decisions, each kept in the one file that implements it:
//   - URLs: "/" and "/index.html" give index.html; an extensionless route
//     "/foo" gives go-app's foo.html; the query is ignored; anything else
//     that is not a regular file is a plain-text 404 (path.go, files.go).
//   - Refused before any file access: encoded ".", "/", "\" or NUL, raw
//     backslashes, NULs, "." and ".." segments (400), paths over 1024 bytes
//     (414). Dotfiles, directories and direct requests for the .br/.gz
//     twins are 404. Files are opened through os.Root, so no symlink leads
//     outside the folder (path.go, files.go).
//   - Encoding: br, then gzip, then identity, by q-value, from the
//     precompressed twins; identity is the last resort (encoding.go).
//   - Validation: strong ETag from a content hash, cached per file while
//     its size and mtime hold; no Last-Modified (etag.go).
//   - Caching: "no-cache" unless the name carries a content hash (cache.go).
//   - CSP: computed once at startup from the prerendered pages; inline
//     code is allowed by sha256 hash only (csp.go, htmlscan.go).
package server
