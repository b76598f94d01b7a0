package sitegen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// swFailure is how go-app's app.js reports a service worker that could not
// register. In an iframe on another site with third-party storage blocked
// that is expected — the page still runs, just not offline — so it becomes a
// warning instead of an error.
const swFailure = `console.error("goapp service worker registration failed: ", err);`

func softenWorkerFailure(dir string) error {
	path := filepath.Join(dir, "app.js")
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	js := string(b)
	if strings.Count(js, swFailure) != 1 {
		return fmt.Errorf("app.js: go-app's service worker error report changed; revisit softenWorkerFailure")
	}
	js = strings.Replace(js, swFailure, strings.Replace(swFailure, "console.error", "console.warn", 1), 1)
	return os.WriteFile(path, []byte(js), 0o644)
}
