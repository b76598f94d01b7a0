package sitegen

// wasmPreload is a <head> hint that starts the app.wasm download while the
// page is still being parsed: otherwise it starts only when app.js runs,
// which is deferred until after the prerendered page. crossorigin because
// app.js fetch()es the wasm in cors mode, and the browser reuses a preload
// only for a request of the same mode (without it the wasm would be
// downloaded twice). app.js compiles the response as it streams in
// (WebAssembly.instantiateStreaming, which needs the server's
// application/wasm, also on the brotli twin).
func wasmPreload(prefix string) string {
	return `<link rel="preload" href="` + prefix + `/web/app.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`
}
