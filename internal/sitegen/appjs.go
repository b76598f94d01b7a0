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

// wasmFetch is how go-app's app.js fetches the wasm for
// instantiateStreaming: through a JavaScript stream that re-queues every
// chunk on the main thread and rewrites the loader's percentage, which
// repaints the page each frame while the wasm downloads. Handing the
// compiler fetch's own response takes that work off the thread the app
// starts on (about 0.5 s of it in a cold-load trace on the 2-core CI
// machine); the loader then says "Loading…" without a percentage.
func wasmFetch(prefix string) (from, to string) {
	url := strconv.Quote(prefix + "/web/app.wasm")
	return "fetchWithProgress(" + url + ", showProgress)", "fetch(" + url + ")"
}

// editAppJS makes the edits above in the app.js go-app wrote. Each must
// match exactly once, so a go-app upgrade that changes the code fails the
// build instead of silently shipping go-app's version.
func editAppJS(dir, prefix string) error {
	path := filepath.Join(dir, "app.js")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	js := string(b)
	fetchFrom, fetchTo := wasmFetch(prefix)
	for _, e := range []struct{ from, to, why string }{
		{swFailure, strings.Replace(swFailure, "console.error", "console.warn", 1), "service worker error report"},
		{fetchFrom, fetchTo, "wasm fetch"},
	} {
		if strings.Count(js, e.from) != 1 {
			return fmt.Errorf("app.js: go-app's %s changed; revisit internal/sitegen/appjs.go", e.why)
		}
		js = strings.Replace(js, e.from, e.to, 1)
	}
	return os.WriteFile(path, []byte(js), 0o644)
}
