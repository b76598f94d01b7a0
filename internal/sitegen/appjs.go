package sitegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// swFailure is how go-app's app.js reports a service worker that could not
// register. In an iframe on another site with third-party storage blocked
// that is expected — the page still runs, just not offline — so it becomes a
// warning instead of an error.
const swFailure = `console.error("goapp service worker registration failed: ", err);`

// appJSEdit is one exact replacement in the app.js go-app writes.
type appJSEdit struct{ from, to, what string }

// appJSEdits are the site's edits of go-app's app.js. They are part of the
// site's Version, so changing one updates installed copies.
//
// The wasm: go-app's fetchWithProgress reads the wasm chunk by chunk in
// JavaScript, re-queues each chunk into a new stream on the main thread and
// rewrites the loader's percentage, which repaints the page at every frame
// of the download: main-thread time taken from the start-up it waits for.
// The loader says "Loading…" without a percentage. And
// app.js, deferred until the page is parsed, began the compile only then:
// it now instantiates the module the head's script began compiling
// (preload.go), and compiles one itself only if that script did not run.
func appJSEdits(prefix string) []appJSEdit {
	wasm := strconv.Quote(prefix + "/web/app.wasm")
	return []appJSEdit{
		{swFailure, strings.Replace(swFailure, "console.error", "console.warn", 1), "service worker error report"},
		{`    const wasm = await instantiateStreaming(
      fetchWithProgress(` + wasm + `, showProgress),
      go.importObject
    );
`, `    const module = await (window.kvleakWasm || WebAssembly.compileStreaming(fetch(` + wasm + `)));
    const wasm = { instance: await WebAssembly.instantiate(module, go.importObject) };
`, "wasm fetch and compile"},
		// Not an edit: the head's script mirrors this check (preload.go), so
		// a change of it in go-app must fail the build.
		{canLoadWasm, canLoadWasm, "check for crawlers and ?wasm=false"},
	}
}

// canLoadWasm is go-app's test for running the wasm at all.
const canLoadWasm = `function goappCanLoadWebAssembly() {
  if (
    /bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent)
  ) {
    return false;
  }

  const urlParams = new URLSearchParams(window.location.search);
  return urlParams.get("wasm") !== "false";
}`

// editAppJS makes the edits in dir's app.js. Each must match exactly once,
// so a go-app upgrade that changes the code fails the build instead of
// silently shipping go-app's version.
func editAppJS(dir string, edits []appJSEdit) error {
	path := filepath.Join(dir, "app.js")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	js := string(b)
	for _, e := range edits {
		if strings.Count(js, e.from) != 1 {
			return fmt.Errorf("app.js: go-app's %s changed; revisit internal/sitegen/appjs.go", e.what)
		}
		js = strings.Replace(js, e.from, e.to, 1)
	}
	return os.WriteFile(path, []byte(js), 0o644)
}
