package dom

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The run too long for a link is kept in window.sessionStorage as the JSON
// text model.Session.TabRun writes, and the challenges' progress in
// window.localStorage as model.Progress writes it, directly: go-app's
// storages would encode them again with encoding/json, which the wasm
// leaves out (patches/goapp/no-json.patch).

// The storages Keep and Read use.
const (
	TabStorage     = "sessionStorage" // this tab's, for the run too long for a link
	BrowserStorage = "localStorage"   // the browser's, for the challenges' progress
)

// Keep stores data in storage (TabStorage or BrowserStorage) under key. A
// browser that refuses (storage full, or blocked) makes it an error, not a
// panic; where storage is blocked, GuardStorage's stand-in keeps it for
// the page's lifetime.
func Keep(storage, key string, data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the browser's %s refused it: %v", storage, r)
		}
	}()
	app.Window().Get(storage).Call("setItem", key, string(data))
	return nil
}

// Read returns what Keep stored in storage under key, or nil.
func Read(storage, key string) (data []byte) {
	defer func() {
		if recover() != nil {
			data = nil
		}
	}()
	v := app.Window().Get(storage).Call("getItem", key)
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return []byte(v.String())
}
