// Memory after a full garbage collection of the JS heap (gc() needs
// --js-flags=--expose-gc). Go's heap lives in the wasm linear memory,
// which only grows: its size is the high-water mark of Go's heap and
// stacks. usedJSHeapSize needs --enable-precise-memory-info.
async () => {
  let gcRan = false;
  if (typeof gc === "function") {
    gc();
    await new Promise((r) => setTimeout(r, 0));
    gc();
    gcRan = true;
  }
  const B = window.__bench || {};
  const mem = B.instance && B.instance.exports && B.instance.exports.mem;
  return {
    gc: gcRan,
    jsHeapUsed: performance.memory ? performance.memory.usedJSHeapSize : -1,
    jsHeapTotal: performance.memory ? performance.memory.totalJSHeapSize : -1,
    wasmMemory: mem ? mem.buffer.byteLength : -1,
    domNodes: document.getElementsByTagName("*").length,
    gridCells: (document.getElementById("grid") || { children: [] }).children.length,
    logRows: (document.getElementById("log") || { children: [] }).children.length,
    urlBytes: location.href.length,
    summary: (document.querySelector("#pool-decode .hint") || {}).textContent || "", // decode's pool, where #grid is
  };
}
