package web

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"kvleak/web/model"
)

// The run too long for a link is kept in window.sessionStorage as the JSON
// text model.Session.TabRun writes. go-app's SessionStorage would encode it
// again with encoding/json, which the wasm leaves out (internal/goappfork).

// keepInTab stores data under model.TabKey. A browser that refuses (storage
// full, or blocked) makes it an error, not a panic.
func keepInTab(data []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the tab's storage refused the run: %v", r)
		}
	}()
	app.Window().Get("sessionStorage").Call("setItem", model.TabKey, string(data))
	return nil
}

// readFromTab returns what keepInTab stored, or nil.
func readFromTab() (data []byte) {
	defer func() {
		if recover() != nil {
			data = nil
		}
	}()
	v := app.Window().Get("sessionStorage").Call("getItem", model.TabKey)
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	return []byte(v.String())
}
