package goappfork

import (
	"strconv"
	"strings"
)

// The scripts go-app writes for the site, which the script edits change.
const (
	AppJS    = "app.js"
	WorkerJS = "app-worker.js"
)

// scriptsSource is the go-app file that holds both scripts; its hash is
// checked with the copy's files, so a release that changes them is looked
// at.
const scriptsSource = "pkg/app/scripts.go"

// swFailure is how go-app's app.js reports a service worker that could not
// register (edit sw-warning).
const swFailure = `console.error("goapp service worker registration failed: ", err);`

// CanLoadWasm is go-app's test in app.js for running the wasm at all. It
// is no edit: sitegen's head script mirrors it, so EditScript requires it
// unchanged, and a go-app that changes it fails the build instead of
// fetching the wasm for pages that skip it.
const CanLoadWasm = `function goappCanLoadWebAssembly() {
  if (
    /bot|googlebot|crawler|spider|robot|crawling/i.test(navigator.userAgent)
  ) {
    return false;
  }

  const urlParams = new URLSearchParams(window.location.search);
  return urlParams.get("wasm") !== "false";
}`

// canLoadWasmPin is CanLoadWasm as an edit that changes nothing.
var canLoadWasmPin = Edit{Name: "crawler-check pin", scripts: map[string][]replacement{AppJS: {{CanLoadWasm, CanLoadWasm}}}}

// wasmURL stands for app.wasm's URL, quoted for JavaScript, in the script
// edits' text.
const wasmURL = "{{kvleak.wasmURL}}"

// scriptEdits are the edits of the scripts, and the pin.
func scriptEdits() []Edit {
	var edits []Edit
	for _, e := range Edits {
		if e.scripts != nil {
			edits = append(edits, e)
		}
	}
	return append(edits, canLoadWasmPin)
}

// scriptReplacements are e's edits of script for a site under prefix.
func scriptReplacements(e Edit, script, prefix string) []replacement {
	url := strconv.Quote(prefix + "/web/app.wasm")
	var rs []replacement
	for _, r := range e.scripts[script] {
		rs = append(rs, replacement{strings.ReplaceAll(r.old, wasmURL, url), strings.ReplaceAll(r.new, wasmURL, url)})
	}
	return rs
}

// EditScript makes the edits of script (AppJS or WorkerJS) in js, as
// go-app wrote it for a site under prefix. Each must match exactly once.
func EditScript(script, js, prefix string) (string, error) {
	for _, e := range scriptEdits() {
		var err error
		if js, err = apply(script+" (edit "+e.Name+")", js, scriptReplacements(e, script, prefix)); err != nil {
			return "", err
		}
	}
	return js, nil
}

// ScriptChanges is the text of every script edit for prefix, old and new:
// the site's version hashes it, so a changed edit updates installed copies.
func ScriptChanges(prefix string) []string {
	var texts []string
	for _, script := range []string{AppJS, WorkerJS} {
		for _, e := range scriptEdits() {
			for _, r := range scriptReplacements(e, script, prefix) {
				texts = append(texts, r.old, r.new)
			}
		}
	}
	return texts
}
