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

// KeepInTab stores data in the tab's storage under key. A browser that
// refuses (storage full, or blocked) makes it an error, not a panic.
func KeepInTab(key string, data []byte) error {
	return keep("sessionStorage", key, data, "the tab's storage refused the run")
}

// ReadTab returns what KeepInTab stored under key, or nil.
func ReadTab(key string) []byte { return read("sessionStorage", key) }

// KeepLocal stores data in the browser's localStorage under key (the
// challenges' progress), as KeepInTab does in the tab's. Where storage is
// blocked, GuardStorage's stand-in keeps it for the page's lifetime.
func KeepLocal(key string, data []byte) error {
	return keep("localStorage", key, data, "the browser's storage refused the progress")
}

// ReadLocal returns what KeepLocal stored under key, or nil.
func ReadLocal(key string) []byte { return read("localStorage", key) }

func keep(storage, key string, data []byte, refused string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: %v", refused, r)
		}
	}()
	app.Window().Get(storage).Call("setItem", key, string(data))
	return nil
}

func read(storage, key string) (data []byte) {
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
