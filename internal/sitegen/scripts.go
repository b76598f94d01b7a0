package sitegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// scriptEdit is one of kvleak's edits of a script go-app writes for the
// site (app.js, its service worker app-worker.js): old, go-app's text,
// must occur exactly once, so a go-app whose code moved stops the build
// instead of shipping its own version. docs/upgrading-go-app.md says why
// each is made and what it buys.
type scriptEdit struct{ name, script, old, new string }

// swFailure is how go-app's app.js reports a service worker that could not
// register.
const swFailure = `console.error("goapp service worker registration failed: ", err);`

// canLoadWasm is go-app's test in app.js for running the wasm at all. The
// head's script (preload.go) mirrors it, so it is pinned: an edit that
// changes nothing.
const canLoadWasm = `function goappCanLoadWebAssembly() {
  if (
    /bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent)
  ) {
    return false;
  }

  const urlParams = new URLSearchParams(window.location.search);
  return urlParams.get("wasm") !== "false";
}`

// scriptEdits are the edits for a site under prefix, whose app.wasm's URL
// they name.
func scriptEdits(prefix string) []scriptEdit {
	url := strconv.Quote(prefix + "/web/app.wasm")
	return []scriptEdit{
		// In a frame on another site with its site data blocked the worker
		// cannot register, which is expected (the page runs, only not
		// offline), but app.js reported it as a console error.
		{"sw-warning", "app.js", swFailure, strings.Replace(swFailure, "console.error", "console.warn", 1)},
		// fetchWithProgress re-queued the wasm chunk by chunk on the main
		// thread and repainted the loader every frame; app.js instantiates
		// the module the head's script began compiling (preload.go).
		{"wasm-compile", "app.js", `    const wasm = await instantiateStreaming(
      fetchWithProgress(` + url + `, showProgress),
      go.importObject
    );
`, `    const module = await (window.kvleakWasm || WebAssembly.compileStreaming(fetch(` + url + `)));
    const wasm = { instance: await WebAssembly.instantiate(module, go.importObject) };
`},
		// Every permalink is a query on the same page, but go-app's worker
		// answered a navigation from its cache only for the exact URL.
		{"worker-any-query", "app-worker.js", "caches.match(request)", `caches.match(request, {ignoreSearch: request.mode === "navigate"})`},
		{"crawler-check pin", "app.js", canLoadWasm, canLoadWasm},
	}
}

// editScripts makes the edits in the scripts go-app wrote to dir for a
// site under prefix. An edit that no longer matches fails the build and
// leaves its script as it was.
func editScripts(dir, prefix string) error {
	for _, script := range []string{"app.js", "app-worker.js"} {
		path := filepath.Join(dir, script)
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		js := string(b)
		for _, e := range scriptEdits(prefix) {
			if e.script != script {
				continue
			}
			if n := strings.Count(js, e.old); n != 1 {
				return fmt.Errorf("%s (edit %s): go-app's text occurs %d times, not once: see docs/upgrading-go-app.md", script, e.name, n)
			}
			js = strings.Replace(js, e.old, e.new, 1)
		}
		if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
			return err
		}
	}
	return nil
}
