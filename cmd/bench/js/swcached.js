// Whether go-app's service worker finished caching the page and app.wasm
// (its install handler precaches every resource).
(wasmURL) =>
  Promise.all([caches.match(location.href), caches.match(wasmURL)]).then(
    ([page, wasm]) => !!(page && wasm),
  )
