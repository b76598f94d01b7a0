// Package server serves the built playground site (build/site) with the
// hardening the issue asks for: precompressed twins, content-hash ETags,
// a strict CSP, path confinement through os.Root, and bounded timeouts.
//
// It is server-only code: nothing in the wasm build may import it.
package server
