package dom

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The run too long for a link is kept in window.sessionStorage as the JSON
// text model.Session.TabRun writes, directly: go-app's SessionStorage would
// encode it again with encoding/json, which the wasm leaves out
// (patches/goapp/no-json.patch).

// KeepInTab stores data in the tab's storage under key. A browser that
// refuses (storage full, or blocked) makes it an error, not a panic.
func KeepInTab(key string, data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the tab's storage refused the run: %v", r)
		}
	}()
	app.Window().Get("sessionStorage").Call("setItem", key, string(data))
	return nil
}

// ReadTab returns what KeepInTab stored under key, or nil.
func ReadTab(key string) (data []byte) {
	defer func() {
		if recover() != nil {
			data = nil
		}
	}()
	v := app.Window().Get("sessionStorage").Call("getItem", key)
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return []byte(v.String())
}
