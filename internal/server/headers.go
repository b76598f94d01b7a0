package server

import "net/http"

// setSecurityHeaders runs first for every response the handler writes,
// errors and redirects included. No Cross-Origin-Resource-Policy or
// X-Frame-Options: the playground is meant to be embedded, and framing is
// governed by the CSP's frame-ancestors alone.
func setSecurityHeaders(h http.Header, csp string) {
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
}
