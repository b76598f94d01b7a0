// Installed with Page.addScriptToEvaluateOnNewDocument, so it runs in each
// new document before the page's own scripts. It records, in
// window.__bench:
//   ready       performance.now() when #playground[data-ready="true"]
//               appears (the wasm app mounted: controls respond)
//   readyFrame  the animation frame after that
//   instStart, instEnd  around WebAssembly.instantiate(Streaming): fetch
//               plus compile plus instantiate of app.wasm
//   instance    the wasm instance, whose exports.mem is Go's linear memory
// go-app keeps `go` and the instance in local variables of app.js, so
// wrapping the WebAssembly entry points is the only way to reach them.
(() => {
  if (window.__bench) return;
  const B = (window.__bench = {
    ready: null, readyFrame: null, instStart: null, instEnd: null, instance: null,
  });
  const wrap = (orig) =>
    async function (...args) {
      if (B.instStart === null) B.instStart = performance.now();
      const r = await orig.apply(this, args);
      B.instEnd = performance.now();
      B.instance = r.instance || r;
      return r;
    };
  if (WebAssembly.instantiateStreaming) {
    WebAssembly.instantiateStreaming = wrap(WebAssembly.instantiateStreaming);
  }
  WebAssembly.instantiate = wrap(WebAssembly.instantiate);

  const check = () => {
    if (!document.querySelector('#playground[data-ready="true"]')) return false;
    B.ready = performance.now();
    requestAnimationFrame(() => { B.readyFrame = performance.now(); });
    return true;
  };
  const mo = new MutationObserver(() => { if (check()) mo.disconnect(); });
  mo.observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"],
  });
})();
