// Waits (at most timeoutMs) until hook.js saw the app become ready, then
// returns the load timings, all in ms since navigation start.
async (timeoutMs) => {
  const started = Date.now();
  const B = window.__bench;
  if (!B) throw new Error("hook.js did not run in this document");
  while (B.readyFrame === null) {
    if (Date.now() - started > timeoutMs) {
      const label = (document.getElementById("app-wasm-loader-label") || {}).innerText;
      throw new Error("the app was not ready after " + timeoutMs + " ms; loader says: " + label);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  // The paint's entry comes with the compositor's report of the frame,
  // which a task posts; behind Go's start it can land after the app is
  // ready, so it gets a moment (the entry keeps the paint's own time).
  const fcpBy = Date.now() + 2000;
  while (!performance.getEntriesByName("first-contentful-paint").length && Date.now() < fcpBy) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0] || {};
  // The wasm's own request: with the page's preload hint it can start
  // before the head's script asks to compile it (instStart).
  const wasm = performance.getEntriesByType("resource").find((e) => e.name.endsWith("/web/app.wasm")) || {};
  return {
    fcp: fcp ? fcp.startTime : -1,
    ready: B.ready,
    readyFrame: B.readyFrame,
    instStart: B.instStart === null ? -1 : B.instStart,
    instEnd: B.instEnd === null ? -1 : B.instEnd,
    domContentLoaded: nav.domContentLoadedEventEnd || -1,
    load: nav.loadEventEnd || -1,
    wasmRequest: wasm.startTime === undefined ? -1 : wasm.startTime,
    wasmResponseEnd: wasm.responseEnd || -1,
  };
}
