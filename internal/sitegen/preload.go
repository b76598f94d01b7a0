package sitegen

import (
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"kvleak/internal/server"
	"kvleak/web/dom"
)

// headTags is what the page's <head> adds to go-app's: a preload hint, a
// script that starts compiling app.wasm (wasmSize bytes) while the page is
// still parsed, the script that answers the page until the app runs
// (early.go), and the function the app's patches set classes through
// (dom.ClassesScript). All are part of the site's Version.
func headTags(prefix string, wasmSize int) []string {
	return []string{wasmPreload(prefix), wasmEarlyCompile(prefix, wasmSize), earlyScript(), dom.ClassesScript}
}

// wasmPreload is a <head> hint that starts the app.wasm download as soon as
// the browser's preload scanner sees the head, before the script below runs
// (a stylesheet still loading holds an inline script back). crossorigin
// because the script fetch()es the wasm in cors mode, and the browser
// reuses a preload only for a request of the same mode (without it the wasm
// would be downloaded twice).
func wasmPreload(prefix string) string {
	return `<link rel="preload" href="` + prefix + `/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`
}

// wasmEarlyCompile is an inline script that hands the wasm's response to
// the compiler at once (WebAssembly.compileStreaming, which needs the
// server's application/wasm, also on the brotli twin) and leaves the
// promise of the module in window.kvleakWasm. go-app's app.js is deferred
// until the prerendered page is parsed, so without this script the compiler
// only began reading the bytes then.
// The edited app.js instantiates this module (the script edit wasm-compile,
// scripts.go), or compiles one itself if the script did not run (a host
// whose Content-Security-Policy lacks its hash). A failed compile is
// reported by app.js, which awaits it; the catch here only keeps the
// browser from calling it unhandled first.
//
// It skips what go-app's goappCanLoadWebAssembly skips (crawlers and
// ?wasm=false), whose text scripts.go pins (canLoadWasm), so that no wasm
// is fetched for a page that will not run it.
//
// It also counts the download, in window.kvleakWasmProgress, for a control
// that waits for the app (early.js): the bytes of a copy of the response
// (Response.clone, which the browser tees without a second request) as
// they come, of wasmSize, app.wasm's decoded size.
func wasmEarlyCompile(prefix string, wasmSize int) string {
	return `<script>window.kvleakWasm = (function () {
  if (/bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent) ||
      new URLSearchParams(window.location.search).get("wasm") === "false") {
    return null;
  }
  var res = fetch(` + strconv.Quote(prefix+"/web/app.wasm") + `);
  var progress = window.kvleakWasmProgress = { loaded: 0, total: ` + strconv.Itoa(wasmSize) + ` };
  res.then(function (r) {
    var body = r.clone().body.getReader();
    var count = function (c) {
      if (c.done) return;
      progress.loaded += c.value.byteLength;
      return body.read().then(count);
    };
    return body.read().then(count);
  }).catch(function () {});
  var mod = WebAssembly.compileStreaming ? WebAssembly.compileStreaming(res) :
    res.then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.compile(b); });
  mod.catch(function () {});
  return mod;
})();</script>`
}

// writeScriptHashes writes the hashes of the head's scripts, the site's
// only inline ones, to dir's server.ScriptHashes, which cmd/serve's CSP
// allows.
func writeScriptHashes(dir, prefix string, wasmSize int) error {
	var hashes strings.Builder
	for _, tag := range headTags(prefix, wasmSize) {
		body, ok := strings.CutPrefix(tag, "<script>")
		if !ok {
			continue
		}
		sum := sha256.Sum256([]byte(strings.TrimSuffix(body, "</script>")))
		hashes.WriteString("'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'\n")
	}
	return os.WriteFile(filepath.Join(dir, server.ScriptHashes), []byte(hashes.String()), 0o644)
}
