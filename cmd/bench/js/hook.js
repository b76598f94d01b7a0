// Installed with Page.addScriptToEvaluateOnNewDocument, so it runs in each
// new document before the page's own scripts. It records, in
// window.__bench:
//   ready       performance.now() when #playground[data-ready="true"]
//               appears (the wasm app mounted: controls respond), or
//               window.__benchReady() first holds on a reference page
//   readyFrame  the animation frame after that
//   instStart   when the page asks for app.wasm to be compiled (the
//               head's script, or app.js without it)
//   instEnd     when its instance is made: fetch, compile, instantiate
//   instance    the wasm instance, whose exports.mem is Go's linear memory
//   painted     the first paints of #verdict and of each #tour-pos (the
//               tour's card) until the app is ready: {id, text, t} by
//               Element Timing (renderTime), the hook marking each one
//               (elementtiming) as it appears
//   taps        the clicks: {id, t} (the event's timeStamp)
// go-app keeps `go` and the instance in local variables of app.js, so
// wrapping the WebAssembly entry points is the only way to reach them.
(() => {
  if (window.__bench) return;
  const B = (window.__bench = {
    ready: null, readyFrame: null, instStart: null, instEnd: null, instance: null,
    painted: [], taps: [],
  });
  addEventListener("click", (e) => {
    const c = e.target.closest && e.target.closest("[id]");
    B.taps.push({ id: c ? c.id : "", t: e.timeStamp });
  }, true);
  if (PerformanceObserver.supportedEntryTypes.includes("element")) {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        B.painted.push({ id: e.identifier, text: e.element ? e.element.textContent : "", t: e.renderTime || e.loadTime });
      }
    }).observe({ type: "element", buffered: true });
  }
  const timed = () => {
    for (const id of ["verdict", "tour-pos"]) {
      const el = document.getElementById(id);
      if (el && !el.hasAttribute("elementtiming")) el.setAttribute("elementtiming", id);
    }
  };
  const wrap = (orig, instantiates) =>
    async function (...args) {
      if (B.instStart === null) B.instStart = performance.now();
      const r = await orig.apply(this, args);
      if (instantiates) {
        B.instEnd = performance.now();
        B.instance = r.instance || r;
      }
      return r;
    };
  for (const name of ["compileStreaming", "compile"]) {
    if (WebAssembly[name]) WebAssembly[name] = wrap(WebAssembly[name], false);
  }
  if (WebAssembly.instantiateStreaming) {
    WebAssembly.instantiateStreaming = wrap(WebAssembly.instantiateStreaming, true);
  }
  WebAssembly.instantiate = wrap(WebAssembly.instantiate, true);

  // A reference page (cmd/bench/floor.go) says what ready is for it.
  const ready = window.__benchReady || (() => !!document.querySelector('#playground[data-ready="true"]'));
  const check = () => {
    if (!ready()) return false;
    B.ready = performance.now();
    requestAnimationFrame(() => { B.readyFrame = performance.now(); });
    return true;
  };
  const mo = new MutationObserver(() => {
    timed();
    if (check()) mo.disconnect();
  });
  mo.observe(document, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"],
  });
})();
